// Spacing of mixed Chinese and Latin text, as Chinese technical writing sets it: a space between 汉字 and
// a Latin word or number (`把 Pod 绑定到 node-2`), none between two 汉字 and none before full-width
// punctuation. Captions build their 中文 lines from parts; this evens out the joins.

const han = '\\u4e00-\\u9fff';
const hanThenLatin = new RegExp(`([${han}])([A-Za-z0-9/"])`, 'g');
const latinThenHan = new RegExp(`([A-Za-z0-9)\\]"'%…])([${han}])`, 'g');
const spaceBetweenHan = new RegExp(`([${han}]) +(?=[${han}])`, 'g');
const spaceBeforeFullWidth = / +([，。：；（）、！？」”])/g;
const spaceAfterFullWidth = /([，。：；（、「“]) +/g;

export function zhSpacing(text: string): string {
  return text
    .replace(hanThenLatin, '$1 $2')
    .replace(latinThenHan, '$1 $2')
    .replace(spaceBetweenHan, '$1')
    .replace(spaceBeforeFullWidth, '$1')
    .replace(spaceAfterFullWidth, '$1')
    .replace(/ {2,}/g, ' ')
    .trim();
}
