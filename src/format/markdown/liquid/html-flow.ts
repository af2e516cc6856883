/**
 * CommonMark's HTML block, except that a known Liquid tag alone on a line ends a block of kind 6 or 7 (a
 * `<figure>`, `<div>`, `<table>`, … block), as a blank line does. GitBook writes
 * `<figure>…</figure>` and then `{% endcolumn %}` on the very next line; CommonMark would keep that line (and
 * every line up to the next blank one) inside the HTML block, showing a literal `{% endcolumn %}` and leaving
 * `{% column %}` unterminated.
 *
 * micromark's `htmlFlow` asks, at each line ending of such a block, `blankLineBefore` (a partial construct it does
 * not export) whether the next line is blank; this construct runs the same tokenizer with that one check answered
 * by `endsHtmlBlock`: the next line is blank, or is a Liquid tag line.
 */
import { blankLine, htmlFlow } from 'micromark-core-commonmark';
import type { Construct, Effects, State, TokenizeContext } from 'micromark-util-types';

/** micromark's own check, recognised by its tokenizer's name (micromark-core-commonmark 2.x, lib and dev builds). */
function isBlankLineBefore(construct: Construct | Construct[] | Record<string, unknown>): boolean {
  return !Array.isArray(construct) && (construct as Construct).partial === true && (construct as Construct).tokenize?.name === 'tokenizeBlankLineBefore';
}

export function liquidAwareHtmlFlow(liquidLine: Construct): Construct {
  const endsHtmlBlock: Construct = {
    partial: true,
    tokenize(effects, ok, nok) {
      return (code) => {
        effects.enter('lineEnding');
        effects.consume(code);
        effects.exit('lineEnding');
        return effects.attempt(blankLine, ok, effects.attempt(liquidLine, ok, nok));
      };
    },
  };
  return {
    ...htmlFlow,
    name: 'htmlFlowLiquid',
    tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
      const patched: Effects = {
        ...effects,
        check: (construct, returnOk, returnNok) => effects.check(isBlankLineBefore(construct) ? endsHtmlBlock : construct, returnOk, returnNok),
      };
      return htmlFlow.tokenize.call(this, patched, ok, nok);
    },
  };
}
