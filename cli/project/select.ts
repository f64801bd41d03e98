/**
 * Which stacks a fleet command runs on: every stack of the project, or those matching `--stack`
 * globs, minus those matching `--exclude` globs.
 */

/** `*` matches any run of characters, `?` one character; everything else stands for itself. */
export function globToRegExp(glob: string): RegExp {
  const pattern = [...glob]
    .map((character) => (character === "*" ? ".*" : character === "?" ? "." : character.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`);
}

/**
 * The stacks of `all` (in their order) matched by `include` (every one when empty) and by no
 * `exclude` glob. An include glob that matches nothing is an error, as it is most likely a typo.
 */
export function selectStacks(all: readonly string[], include: readonly string[], exclude: readonly string[]): string[] {
  const includes = include.map((glob) => ({ glob, regExp: globToRegExp(glob) }));
  for (const { glob, regExp } of includes) {
    if (!all.some((name) => regExp.test(name))) {
      throw new Error(`--stack ${glob} matches no stack of the project (its stacks: ${all.join(", ") || "none"})`);
    }
  }
  const excludes = exclude.map(globToRegExp);
  return all.filter(
    (name) => (includes.length === 0 || includes.some(({ regExp }) => regExp.test(name))) && !excludes.some((regExp) => regExp.test(name)),
  );
}
