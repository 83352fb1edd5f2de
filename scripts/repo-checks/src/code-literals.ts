import ts from "typescript";

/** Our areas' codes only: Node's own (ERR_HTTP_REQUEST_TIMEOUT, ERR_STREAM_…) are checked, not thrown, by us. */
export const CODE_PATTERN = /\bERR_(?:ERRORS|SANDBOX|CREATEOS|RUNNER)_[A-Z0-9]+(?:_[A-Z0-9]+)*\b/g;

export interface CodeLiteral {
  readonly code: string;
  /** The literal feeds an assertion: an `expect(…)` chain, an `expect…`/`assert…` helper, or an `.each` table. */
  readonly asserted: boolean;
}

/**
 * Every registry-family code written in code (a string, template or regular expression literal)
 * in one TypeScript file. Comments and test titles never count: the parser does not see
 * comments, and a title is an argument of `it`, not of an assertion.
 */
export function codeLiterals(fileName: string, text: string): CodeLiteral[] {
  if (!text.match(CODE_PATTERN)) return [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { code: string; node: ts.Node }[] = [];
  const references = new Map<string, ts.Node[]>();
  const visit = (node: ts.Node): void => {
    if (isLiteral(node)) {
      for (const code of node.getText(source).match(CODE_PATTERN) ?? []) found.push({ code, node });
    } else if (ts.isIdentifier(node) && !isDeclarationName(node) && !isMemberName(node)) {
      const uses = references.get(node.text);
      if (uses) uses.push(node);
      else references.set(node.text, [node]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const assertedNames = new Map<string, boolean>();
  const isAssertedName = (name: string): boolean => {
    if (!assertedNames.has(name)) {
      assertedNames.set(name, false); // a name that refers to itself proves nothing
      const uses = references.get(name) ?? [];
      assertedNames.set(
        name,
        uses.some((use) => feedsAssertion(use, isAssertedName)),
      );
    }
    return assertedNames.get(name) ?? false;
  };
  return found.map(({ code, node }) => ({ code, asserted: feedsAssertion(node, isAssertedName) }));
}

function isLiteral(node: ts.Node): boolean {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isRegularExpressionLiteral(node) ||
    ts.isTemplateHead(node) ||
    ts.isTemplateMiddle(node) ||
    ts.isTemplateTail(node)
  );
}

/**
 * Whether a value reaches an assertion: it is an argument (at any depth) of an assertion call,
 * or it initialises a variable (or is returned by a function) whose name is itself used that way.
 */
function feedsAssertion(node: ts.Node, isAssertedName: (name: string) => boolean): boolean {
  // `new RunnerError("ERR_…", …)` in a test builds a fixture; it asserts nothing about the code.
  if (node.parent && ts.isNewExpression(node.parent)) return false;
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isCallExpression(parent) && child !== parent.expression && isAssertionCall(parent)) return true;
    const declared = declaredName(parent, child);
    if (declared !== undefined && isAssertedName(declared)) return true;
  }
  return false;
}

/** The name a value is bound to when `child` is the initialiser of a variable or the body of a function. */
function declaredName(parent: ts.Node, child: ts.Node): string | undefined {
  if (ts.isVariableDeclaration(parent) && parent.initializer === child) return bindingNames(parent.name)[0];
  if (ts.isFunctionDeclaration(parent) && parent.body === child) return parent.name?.text;
  return undefined;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isBindingElement(element) ? bindingNames(element.name) : []));
}

function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isVariableDeclaration(parent) || ts.isFunctionDeclaration(parent) || ts.isBindingElement(parent)) &&
    parent.name === node
  );
}

/** `x.code` and `{ code: … }` name a member, not the variable `code`. */
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node)
  );
}

/**
 * `expect(…)`, `expect(…).toBe(…)`, `expect.objectContaining(…)`, `await expect(p).rejects.toThrow(…)`,
 * a helper named `expect…`/`assert…`, `assert.equal(…)`, the table of `it.each`/`describe.each`, and
 * `caught`/`caughtSync` of `@paperclipai/errors/testing` (which fail the test on another code).
 */
function isAssertionCall(call: ts.CallExpression): boolean {
  let callee: ts.Expression = call.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "each") return true;
  while (
    ts.isPropertyAccessExpression(callee) ||
    ts.isCallExpression(callee) ||
    ts.isNonNullExpression(callee)
  ) {
    callee = callee.expression;
  }
  return ts.isIdentifier(callee) && /^(?:(?:expect|assert)(?:[A-Z_]|$)|caught(?:Sync)?$)/.test(callee.text);
}
