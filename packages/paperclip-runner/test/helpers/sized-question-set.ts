// A `paperclip.question_set.v1` whose compact JSON is exactly `bytes` long once the fake OpenCode
// proxy expands its `$fill:<n>` strings (n letters `x`), so a short turn script asks for large
// question sets: select questions of up to 128 options, each a label and a description.

const PROMPT = 4000;
const LABEL = 1000;
const DESCRIPTION = 4000;
const OPTIONS = 128;

type Json = Record<string, unknown>;

/** The compact JSON length of `value` with every `$fill:<n>` string n letters long. */
export function expandedLength(value: unknown): number {
  return JSON.stringify(value, (_key, item) => {
    const fill = typeof item === "string" ? /^\$fill:(\d+)$/.exec(item) : null;
    return fill === null ? item : "x".repeat(Number(fill[1]));
  }).length;
}

export function sizedQuestionSet(bytes: number): Json {
  const questions: { id: string; prompt: string; required: boolean; answerMode: string; options: Json[] }[] =
    [];
  const set = { schema: "paperclip.question_set.v1", title: "big", submitLabel: "Submit", questions };
  let last: Json | undefined;
  while (expandedLength(set) < bytes) {
    let question = questions.at(-1);
    if (question === undefined || question.options.length === OPTIONS) {
      question = {
        id: `q${questions.length}`,
        prompt: `$fill:${PROMPT}`,
        required: false,
        answerMode: "single_select",
        options: [],
      };
      questions.push(question);
      // A question of its options alone: its prompt filled only once the options are (below).
      if (expandedLength(set) >= bytes) break;
    }
    last = {
      id: `o${question.options.length}`,
      label: `$fill:${LABEL}`,
      description: `$fill:${DESCRIPTION}`,
    };
    question.options.push(last);
  }
  const excess = expandedLength(set) - bytes;
  if (last === undefined || excess > LABEL + DESCRIPTION - 1)
    throw new Error(`no question set of exactly ${bytes} bytes from this builder`);
  const description = Math.max(0, DESCRIPTION - excess);
  last.description = `$fill:${description}`;
  last.label = `$fill:${LABEL - (excess - (DESCRIPTION - description))}`;
  if (expandedLength(set) !== bytes)
    throw new Error(`question set of ${expandedLength(set)} bytes, not ${bytes}`);
  return set;
}
