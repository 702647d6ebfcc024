#pragma once
// HTML inside a Markdown answer, as a reader of the rendered answer sees it: a tag is markup, not
// words (its name and attributes are never prose); a block tag (<p>, <div>, <h2>, <li>, ...) ends a
// sentence (a <br> breaks a line, as a newline in a paragraph does, and ends none); what is never shown — <script>, <style>, <template>, <head> and an element
// marked `hidden` or styled `display:none`, `visibility:hidden`, `font-size:0` or `opacity:0` — is
// dropped whole, as an HTML comment is. Only the elements of HTML are tags: "a < b", "vector<int>"
// and "<your name here>" stay text.
#include <cstddef>
#include <string_view>

namespace rubric::text {

struct HtmlTag {
  std::size_t length = 0;  // bytes of the tag, '<' to '>'; 0: no HTML tag starts here
  bool closing = false;    // "</p>"
  bool block = false;      // ends a sentence where it stands
  bool heading = false;    // <h1> to <h6>
  bool hidden = false;     // an opening tag whose element is never shown: drop it to its end
  std::string_view name;   // lower-case element name, a view of a static string
};

// The tag starting at t[at] (t[at] == '<'); a tag is at most 4 KiB long.
HtmlTag html_tag_at(std::string_view t, std::size_t at);

// The end of the HTML comment that starts at t[at] ("<!--"): past its "-->", or the end of the text
// when it is never closed; "<!-->" and "<!--->" are whole, empty comments.
std::size_t comment_end(std::string_view t, std::size_t at);

// A Markdown link reference definition starting the line at t[b] ("[//]: # (note)", "[1]: https://...",
// up to three spaces before it): it renders as nothing. The length of its line, or 0.
std::size_t link_definition_at(std::string_view t, std::size_t b);

// The text as a reader of the rendered answer sees its lines: every byte of an HTML comment, a
// hidden element and a link reference definition made a space (line breaks kept, so offsets and
// lines stay those of `t`); fenced code is kept as it is. For finding headings and labels.
// With `tags_too`, every other HTML tag is made spaces as well (what is left is the words a reader
// sees, for counting them).
std::string rendered_layout(std::string_view t, bool tags_too = false);

// The characters of a Markdown answer as they render, in place: an HTML character reference becomes
// its character ("&#110;ot" reads "not", "&nbsp;" a no-break space), and a comment or an empty inline
// tag glued between two letters vanishes ("n<!-- -->ot", "n<span></span>ot"); each keeps its length,
// the rest of its bytes made DEL (which every reader of prose passes over), so offsets into the
// text stay valid. A reference that would make markup ("&lt;", "&#60;", "&amp;") stays as written.
// Empty when the text holds nothing to change (the common case: no copy is made).
std::string characters_as_rendered(std::string_view t);

// The end of a hidden element whose opening tag ends at `from`: past its matching closing tag
// (elements of the same name nest), or the end of the text when it is never closed (a browser
// hides the rest). Linear in the bytes it passes over.
std::size_t hidden_element_end(std::string_view t, std::size_t from, std::string_view name);

}  // namespace rubric::text
