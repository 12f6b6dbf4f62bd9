/** Characters of re-rendering every frame may do whatever arrived, so an open block of ordinary size renders every frame. */
const PER_FRAME = 2048;
/** Savings never exceed this: a quiet stretch cannot pay for one very long frame later. */
const CAP = 16_384;

/**
 * What a streamed answer may spend on rendering again, so that streaming it costs about what
 * rendering it once costs, whatever the answer is (issue 22, item 7). Rendering a block for the
 * last time (when it is finished, or when the answer is done) is the cost of rendering once and is
 * never limited. Every other render, of the open block again as it grows or of a finished block
 * again because a definition it uses arrived, is paid from savings: each frame earns a fixed
 * allowance plus one character per character that arrived, up to a cap. All re-rendering together
 * then costs at most the answer's length plus a fixed amount per frame. A frame that cannot pay
 * keeps showing what it showed; an unclosed construct that keeps one block growing (thousands of
 * emphasis openers, a table thousands of columns wide) then renders each time it has grown by
 * about what it cost to render last, and in full when the answer is done.
 */
export class RenderBudget {
  private savings = CAP;

  /** A new frame, with `added` characters of new text. */
  earn(added: number): void {
    this.savings = Math.min(CAP, this.savings + PER_FRAME + added);
  }

  /** Whether work expected to cost `cost` may start; work beyond the cap may, once savings are full, and runs into debt. */
  canAfford(cost: number): boolean {
    return this.savings >= Math.min(cost, CAP);
  }

  spend(cost: number): void {
    this.savings -= cost;
  }
}
