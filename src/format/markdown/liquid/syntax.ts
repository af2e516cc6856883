/**
 * micromark flow construct for a Liquid tag alone on a line (`{% hint style="info" %}`).
 * Only tag names accepted by `isKnown` become tags; others stay paragraph text. Because it is a
 * flow construct, a tag line interrupts paragraphs and ends lazy list/quote continuation, the way
 * GitBook reads `{% endhint %}` right after a list item. Inside code fences it never applies.
 */
import type { Code, Construct, Extension, State, TokenizeContext, Effects } from 'micromark-util-types';
import { markdownLineEnding, markdownSpace } from 'micromark-util-character';
import { liquidAwareHtmlFlow } from './html-flow.js';

export function liquidTagName(inner: string): string {
  const m = /^\s*([^\s%]+)/.exec(inner);
  return m ? m[1]! : '';
}

export function liquidSyntax(isKnown: (name: string) => boolean): Extension {
  const construct: Construct = { name: 'liquidTag', tokenize };
  // A Liquid tag line also ends an HTML block (./html-flow.ts), which replaces CommonMark's.
  return { flow: { 123: construct, 60: liquidAwareHtmlFlow({ partial: true, tokenize }) }, disable: { null: ['htmlFlow'] } };

  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let inner = '';
    let pendingSpace = '';
    return start;

    function start(code: Code): State | undefined {
      if (code !== 123) return nok(code);
      effects.enter('liquidTag' as never);
      effects.consume(code);
      return percent;
    }
    function percent(code: Code): State | undefined {
      if (code !== 37) return nok(code);
      effects.consume(code);
      return inside;
    }
    function inside(code: Code): State | undefined {
      if (code === null || markdownLineEnding(code)) return nok(code);
      if (code === 37) {
        effects.consume(code);
        return maybeClose;
      }
      inner += code < 0 ? (code === -2 ? '\t' : ' ') : String.fromCodePoint(code);
      effects.consume(code);
      return inside;
    }
    function maybeClose(code: Code): State | undefined {
      if (code === 125) {
        effects.consume(code);
        pendingSpace = '';
        return after;
      }
      inner += '%';
      return inside(code);
    }
    function after(code: Code): State | undefined {
      if (code === null || markdownLineEnding(code)) {
        if (!isKnown(liquidTagName(inner))) return nok(code);
        effects.exit('liquidTag' as never);
        return ok(code);
      }
      if (markdownSpace(code)) {
        pendingSpace += code === -2 || code === 9 ? '\t' : ' ';
        effects.consume(code);
        return after;
      }
      // `%}` followed by more text: the tag continues (a `%}` inside a quoted value).
      inner += '%}' + pendingSpace;
      return inside(code);
    }
  }
}
