; Single-file components (Vue, Svelte, Astro), added to TypeScript's definitions (typescript.scm). A script's
; top level is the component's body, so a call there given a function with a body is the component's own code:
; bound to a name (Vue's ``const logoSrc = computed(() => {``, ``const onSearch = useDebounceFn(async () => {``,
; Svelte's ``const total = $derived.by(() => {``), the span takes that name; as a statement (a lifecycle hook or
; a watcher: ``onMounted(async () => {``, ``watch(() => props.id, (id) => {``, Svelte's ``$effect(() => {``), it
; takes the called function's. (In a module of its own the bound form is often data built by a library, zod's
; ``$constructor("ZodType", (inst, def) => {``, and stays a line of the module: typescript.scm.)
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: (call_expression
        arguments: (arguments [(arrow_function body: (statement_block)) (function_expression)])))) @definition.function)
(program
  (expression_statement
    (call_expression
      function: (identifier) @name
      arguments: (arguments [(arrow_function body: (statement_block)) (function_expression)]))) @definition.function)
