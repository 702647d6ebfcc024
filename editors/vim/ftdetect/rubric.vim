autocmd BufRead,BufNewFile *.rubric setfiletype rubric
