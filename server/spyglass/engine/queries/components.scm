; Single-file components (Vue, Svelte, Astro), added to TypeScript's definitions (typescript.scm). A script's
; top level is the component's body, so a name bound there to a call of a plain function (or of a Svelte rune's
; member) given a function with a body is the component's own code: Vue's ``const logoSrc = computed(() => {``,
; ``const onSearch = useDebounceFn(async () => {``, Svelte's ``const total = $derived.by(() => {``. A method of
; data (``const rows = items.map((item) => {``) is no definition, and neither is a call made as a statement
; (``onMounted(() => {``, ``watch(...)``): it would be named after the library's function, which every
; component calls. In a module of its own the bound form is often data built by a library (zod's
; ``$constructor("ZodType", (inst, def) => {``) and stays a line of the module: typescript.scm.
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: (call_expression
        function: [(identifier) (member_expression object: (identifier) @_rune (#match? @_rune "^[$]"))]
        arguments: (arguments [(arrow_function body: (statement_block)) (function_expression)])))) @definition.function)
