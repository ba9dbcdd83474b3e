; Sections of a Markdown document (block grammar), named by their heading text.
; A setext heading (underlined with === or ---) that does not open a `section` node is an open-ended
; definition: the parser extends it over the following siblings up to the next heading (see languages.py).

(section . (atx_heading heading_content: (_) @name)) @definition.section
(section . (setext_heading heading_content: (_) @name)) @definition.section
(setext_heading heading_content: (_) @name) @definition.section
