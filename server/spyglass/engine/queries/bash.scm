; Definitions in shell scripts: functions, both `name() {}` and `function name {}`.

(function_definition name: (word) @name) @definition.function
