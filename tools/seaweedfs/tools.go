//go:build tools

// Package tools pins SeaweedFS (Apache-2.0), the S3-compatible server Folio's tests run the s3 blob store
// against. src/s3-server/install.ts builds github.com/seaweedfs/seaweedfs/weed from this module into .tools/bin/weed.
// SeaweedFS's own go.mod holds a replace directive, so `go install ...@version` refuses it; this module carries it.
package tools

import _ "github.com/seaweedfs/seaweedfs/weed"
