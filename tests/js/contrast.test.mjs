// Colours that carry meaning keep WCAG contrast on the pane's backgrounds: 3:1 for graphics
// (stars, the uncited underline, markers; WCAG 1.4.11) and 4.5:1 for text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const css = readFileSync(new URL("../../addin_server/static/taskpane/taskpane.css", import.meta.url), "utf8");
const variable = (name) => {
  const m = css.match(new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`));
  assert.ok(m, `--${name} is a #rrggbb colour in taskpane.css`);
  return m[1];
};

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("the contrast formula matches WCAG's examples", () => {
  assert.equal(contrast("#000000", "#ffffff").toFixed(0), "21");
  assert.equal(contrast("#767676", "#ffffff").toFixed(2), "4.54");
  assert.ok(contrast("#e9a100", "#ffffff") < 3, "the old star colour failed");
});

test("graphics: stars, empty stars, uncited underline keep 3:1 on card and panel backgrounds", () => {
  for (const name of ["star", "star-off", "uncited", "brand"]) {
    for (const bg of ["bg1", "bg2"]) {
      const ratio = contrast(variable(name), variable(bg));
      assert.ok(ratio >= 3, `--${name} on --${bg}: ${ratio.toFixed(2)}:1`);
    }
  }
});

test("text: flags, errors, insertions and notes keep 4.5:1", () => {
  const pairs = [["flag", "bg1"], ["flag", "flag-bg"], ["danger", "danger-bg"], ["brand", "brand-bg"], ["fg3", "bg1"], ["fg3", "bg2"], ["fg2", "bg3"]];
  for (const [fg, bg] of pairs) {
    const ratio = contrast(variable(fg), variable(bg));
    assert.ok(ratio >= 4.5, `--${fg} on --${bg}: ${ratio.toFixed(2)}:1`);
  }
});
