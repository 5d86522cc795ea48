/**
 * The tree-sitter grammars Quorum parses (from `@vscode/tree-sitter-wasm`) and, per grammar, the queries that find
 * definitions (`@name` inside a capture named for its kind), call sites (`@call`) and import aliases
 * (`@alias` for `@original`). A capture named `@container` marks code that holds methods without defining a name
 * of its own (a Rust `impl`); `@receiver` names the type of a Go method.
 */

export interface Grammar {
  /** The grammar's file in the package: `tree-sitter-<wasm>.wasm`. */
  wasm: string;
  definitions: string;
  calls: string;
  aliases?: string;
}

const TS_COMMON = `
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(method_definition name: (property_identifier) @name) @method
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @function)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @function))
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @constant))
`;

const TS_TYPES = `
(class_declaration name: (type_identifier) @name) @class
(abstract_class_declaration name: (type_identifier) @name) @class
(interface_declaration name: (type_identifier) @name) @type
(type_alias_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name) @type
`;

const JS_CALLS = `
(call_expression function: (identifier) @call)
(call_expression function: (member_expression property: (property_identifier) @call))
(new_expression constructor: (identifier) @call)
`;

const JS_ALIASES = `
(import_specifier name: (identifier) @original alias: (identifier) @alias)
`;

const JAVASCRIPT: Grammar = { wasm: 'javascript', definitions: TS_COMMON + '(class_declaration name: (identifier) @name) @class', calls: JS_CALLS, aliases: JS_ALIASES };

const TYPESCRIPT: Grammar = { wasm: 'typescript', definitions: TS_COMMON + TS_TYPES, calls: JS_CALLS, aliases: JS_ALIASES };

const GRAMMARS: Record<string, Grammar> = {
  typescript: TYPESCRIPT,
  typescriptreact: { ...TYPESCRIPT, wasm: 'tsx' },
  javascript: JAVASCRIPT,
  javascriptreact: JAVASCRIPT,
  python: {
    wasm: 'python',
    definitions: `
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class
(module (expression_statement (assignment left: (identifier) @name)) @constant)
`,
    calls: `
(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))
`,
    aliases: `
(aliased_import name: (dotted_name) @original alias: (identifier) @alias)
`,
  },
  go: {
    wasm: 'go',
    definitions: `
(function_declaration name: (identifier) @name) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver)])) name: (field_identifier) @name) @method
(type_declaration (type_spec name: (type_identifier) @name)) @type
(source_file (const_declaration (const_spec name: (identifier) @name)) @constant)
(source_file (var_declaration (var_spec name: (identifier) @name)) @constant)
`,
    calls: `
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression field: (field_identifier) @call))
(composite_literal type: (type_identifier) @call)
`,
  },
  java: {
    wasm: 'java',
    definitions: `
(class_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @type
(enum_declaration name: (identifier) @name) @type
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @constant
`,
    calls: `
(method_invocation name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
`,
  },
  csharp: {
    wasm: 'c-sharp',
    definitions: `
(class_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @type
(enum_declaration name: (identifier) @name) @type
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
(property_declaration name: (identifier) @name) @constant
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @constant
`,
    calls: `
(invocation_expression function: (identifier) @call)
(invocation_expression function: (member_access_expression name: (identifier) @call))
(object_creation_expression type: (identifier) @call)
`,
    aliases: `
(using_directive (identifier) @alias (qualified_name (identifier) @original .))
`,
  },
  php: {
    wasm: 'php',
    definitions: `
(function_definition name: (name) @name) @function
(class_declaration name: (name) @name) @class
(interface_declaration name: (name) @name) @type
(trait_declaration name: (name) @name) @type
(enum_declaration name: (name) @name) @type
(method_declaration name: (name) @name) @method
(const_declaration (const_element (name) @name)) @constant
`,
    calls: `
(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (name) @call .))
(member_call_expression name: (name) @call)
(scoped_call_expression name: (name) @call)
(object_creation_expression (name) @call)
`,
    aliases: `
(namespace_use_clause (qualified_name (name) @original .) alias: (name) @alias)
`,
  },
  ruby: {
    wasm: 'ruby',
    definitions: `
(method name: (_) @name) @method
(singleton_method name: (_) @name) @method
(class name: (_) @name) @class
(module name: (_) @name) @class
(assignment left: (constant) @name) @constant
`,
    calls: `
(call method: (identifier) @call)
(call method: (constant) @call)
(call receiver: (constant) @call method: (identifier) @new (#eq? @new "new"))
`,
  },
  rust: {
    wasm: 'rust',
    definitions: `
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @class
(enum_item name: (type_identifier) @name) @type
(trait_item name: (type_identifier) @name) @type
(type_item name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @constant
(static_item name: (identifier) @name) @constant
(macro_definition name: (identifier) @name) @function
(impl_item type: (_) @name) @container
`,
    calls: `
(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (scoped_identifier name: (identifier) @call))
(macro_invocation macro: (identifier) @call)
(struct_expression name: (type_identifier) @call)
`,
    aliases: `
(use_as_clause path: (scoped_identifier name: (identifier) @original) alias: (identifier) @alias)
(use_as_clause path: (identifier) @original alias: (identifier) @alias)
`,
  },
};

/** The grammar of a VS Code language id, or undefined when Quorum has none for it. */
export function grammarOf(language: string): Grammar | undefined {
  return Object.hasOwn(GRAMMARS, language) ? GRAMMARS[language] : undefined;
}
