import net from 'node:net';

/**
 * FETCH_ALLOW_HOSTS: destinations the fetch guard lets through although they are private (an internal Git
 * server, a test's loopback server). Comma-separated hostnames (exact, case-insensitive), IP addresses and
 * CIDRs, IPv4 and IPv6 (`git.internal, 10.1.2.3, 10.20.0.0/16, ::1, fd00::/8`). A hostname entry allows
 * whatever that name resolves to; an address or CIDR entry allows those addresses whatever name led there.
 */
export class HostAllowlist {
  readonly entries: readonly string[];
  private readonly hosts = new Set<string>();
  private readonly addresses = new net.BlockList();

  constructor(entries: readonly string[] = []) {
    this.entries = entries;
    for (const raw of entries) {
      const entry = raw.trim();
      if (entry === '') continue;
      const slash = entry.indexOf('/');
      if (slash >= 0) {
        const prefix = bare(entry.slice(0, slash));
        const bitsText = entry.slice(slash + 1);
        const family = net.isIP(prefix);
        const bits = Number(bitsText);
        if (family === 0 || !/^\d{1,3}$/.test(bitsText) || bits > (family === 4 ? 32 : 128))
          throw new Error(`FETCH_ALLOW_HOSTS: ${JSON.stringify(entry)} is not a valid CIDR`);
        this.addresses.addSubnet(prefix, bits, family === 4 ? 'ipv4' : 'ipv6');
        continue;
      }
      const ip = bare(entry);
      const family = net.isIP(ip);
      if (family !== 0) {
        this.addresses.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
        continue;
      }
      if (!/^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?\.?$/i.test(entry))
        throw new Error(`FETCH_ALLOW_HOSTS: ${JSON.stringify(entry)} is not a hostname, IP address or CIDR`);
      this.hosts.add(normalizeHost(entry));
    }
  }

  /** Parses the comma-separated setting; throws an Error naming FETCH_ALLOW_HOSTS on a malformed entry. */
  static parse(raw: string | undefined): HostAllowlist {
    return new HostAllowlist(
      (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
  }

  /** Whether the hostname of a URL (not an IP literal) is listed by name. */
  allowsHost(hostname: string): boolean {
    return this.hosts.has(normalizeHost(hostname));
  }

  /** Whether an address is listed (as itself or inside a CIDR); IPv4-mapped IPv6 forms are checked as IPv4 too. */
  allowsAddress(address: string): boolean {
    const ip = bare(address);
    const family = net.isIP(ip);
    if (family === 4) return this.addresses.check(ip, 'ipv4');
    if (family === 6) {
      if (this.addresses.check(ip, 'ipv6')) return true;
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
      return mapped !== null && this.addresses.check(mapped[1]!, 'ipv4');
    }
    return false;
  }
}

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}
