import { walkTree, withTree } from '../syntax/parser';

/**
 * Syntax errors of a file's text, from the same tree-sitter grammars as the review's context (syntax only: no type
 * checking, no file system): the ERROR and MISSING nodes of its tree. Used to refuse a fix that would add syntax
 * errors to a file, in every language with a grammar (TypeScript, TSX, JavaScript, Python, Go, Java, C#, PHP,
 * Ruby, Rust). `undefined` for other languages.
 */
export async function syntaxErrorCount(text: string, language: string): Promise<number | undefined> {
  return withTree(text, language, (tree) => {
    if (!tree.rootNode.hasError) return 0;
    let count = 0;
    walkTree(tree, (cursor) => {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) count++;
      // Inside an error, nothing more is counted: one broken stretch is one error.
      return !node.isError && node.hasError;
    });
    return count;
  });
}
