/** The language of a file from its name, as VS Code's language ids name it (`plaintext` when unknown). */

const LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'typescriptreact', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascriptreact', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.rb': 'ruby', '.go': 'go', '.rs': 'rust', '.java': 'java', '.kt': 'kotlin', '.kts': 'kotlin',
  '.scala': 'scala', '.swift': 'swift', '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp',
  '.cs': 'csharp', '.php': 'php', '.sh': 'shellscript', '.bash': 'shellscript', '.zsh': 'shellscript', '.ps1': 'powershell',
  '.sql': 'sql', '.html': 'html', '.css': 'css', '.scss': 'scss', '.vue': 'vue', '.svelte': 'svelte', '.lua': 'lua',
  '.dart': 'dart', '.ex': 'elixir', '.exs': 'elixir', '.erl': 'erlang', '.hs': 'haskell', '.ml': 'ocaml', '.r': 'r',
  '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml', '.xml': 'xml', '.md': 'markdown', '.tf': 'terraform',
};

export function languageOfFile(file: string): string {
  const name = file.replace(/\\/g, '/').split('/').pop()?.toLowerCase() ?? '';
  if (name === 'dockerfile') return 'dockerfile';
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? LANGUAGES[name.slice(dot)] : undefined) ?? 'plaintext';
}

