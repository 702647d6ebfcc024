" Vim syntax for .rubric files (the grading language of the rubric tool).
if exists('b:current_syntax') | finish | endif

syn keyword rubricDeclaration rubric param let def criterion group concept
syn keyword rubricInclude     use import
syn keyword rubricModifier    weight penalty required after needs
syn keyword rubricStatement   expect check note score
syn keyword rubricConditional if then else
syn keyword rubricRepeat      for in
syn keyword rubricOperator    and or not within of matches to mentions affirms denies near as
syn keyword rubricConstant    true false null
syn keyword rubricRoot        submission reference

syn match rubricNumber '\v<\d[0-9_]*(\.[0-9_]+)?([eE][-+]?\d+)?(Ki|Mi|Gi|Ti|k|M|G|T|x)?>'
syn match rubricNumber '\v<\d[0-9_]*(\.[0-9_]+)?[%]'
syn match rubricUnit   '\v(\d\s*|<as\s+)@<=(GFLOP|TFLOP|PFLOP|FLOP|KiB|MiB|GiB|TiB|µs|μs|min|tok|req|GHz|MHz|kHz|Hz|ns|us|ms|kB|KB|MB|GB|TB|s|h|B)>(\s*[/*]\s*(GFLOP|TFLOP|PFLOP|FLOP|KiB|MiB|GiB|TiB|µs|μs|min|tok|req|GHz|MHz|kHz|Hz|ns|us|ms|kB|KB|MB|GB|TB|s|h|B)>)*'
syn match rubricFunction '\v<\h\w*>\ze\s*\('
syn match rubricCriterionId '\v(<(criterion|group|def|concept)\s+)@<=\h\w*'

syn region rubricInterpolation matchgroup=rubricInterpDelim start='{' end='}' contained contains=TOP
syn match  rubricEscape '\\[ntr"\\{}]' contained
syn match  rubricEscape '{{\|}}' contained
syn region rubricString    start='"' skip='\\"' end='"\|$' contains=rubricEscape,rubricInterpolation
syn region rubricRawString start='\<r"' end='"\|$'

syn match rubricDoc     '##.*$' contains=@Spell
syn match rubricComment '#\([^#].*\)\?$' contains=@Spell

hi def link rubricDeclaration  Structure
hi def link rubricInclude      Include
hi def link rubricModifier     StorageClass
hi def link rubricStatement    Statement
hi def link rubricConditional  Conditional
hi def link rubricRepeat       Repeat
hi def link rubricOperator     Operator
hi def link rubricConstant     Constant
hi def link rubricRoot         Special
hi def link rubricNumber       Number
hi def link rubricUnit         Type
hi def link rubricFunction     Function
hi def link rubricCriterionId  Identifier
hi def link rubricString       String
hi def link rubricRawString    String
hi def link rubricEscape       SpecialChar
hi def link rubricInterpDelim  Delimiter
hi def link rubricComment      Comment
hi def link rubricDoc          SpecialComment

let b:current_syntax = 'rubric'
