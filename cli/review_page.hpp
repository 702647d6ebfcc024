#pragma once
// The review page's HTML: the queue and one submission with a form per criterion. No script, no
// request off the machine; every string from a result line, a submission file or a review passes
// through display_text (report/display_text.hpp) and is then HTML-escaped.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "grading/review_queue.hpp"
#include "grading/review_store.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::cli {

// What the pages are drawn from; the lines and the queue stay as loaded, the reviews are read
// again for every page.
struct ReviewSite {
  std::string out_dir;
  std::map<std::string, json::Value> lines;  // by submission
  std::vector<std::string> submissions;      // page number → submission, in the lines' (sorted) order
  std::vector<grading::QueueGroup> queue;
  bool blind = false;
  std::string reviewer;  // the form's default
  std::string token;
};

using ReviewsInForce = std::map<std::pair<std::string, std::string>, grading::Review>;

std::string queue_page(const ReviewSite& site, const ReviewsInForce& reviews);
// `notice`: a line above the criteria ("" for none), such as why a review was refused.
std::string submission_page(const ReviewSite& site, std::size_t index, const ReviewsInForce& reviews,
                            const std::string& notice);
std::string message_page(const std::string& title, const std::string& text);

// With --blind, the tool's verdicts and evidence on a submission stay hidden until every
// criterion of it has a review in force that applies.
bool tool_hidden(const ReviewSite& site, const std::string& submission, const ReviewsInForce& reviews);

// The leaf criteria of a result line, depth-first.
std::vector<const json::Value*> leaf_criteria(const json::Value& line);

}  // namespace rubric::cli
