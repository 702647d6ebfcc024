#include "cli/review_server.hpp"

#include <cstdio>
#include <sys/random.h>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "grading/result_line.hpp"
#include "grading/review_store.hpp"
#include "grading/reviewed_results.hpp"

namespace rubric::cli {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::size_t kBodyLimit = 1 << 20;

// application/x-www-form-urlencoded and query strings: '+' is a space, %XX a byte.
std::map<std::string, std::string> form_fields(std::string_view text) {
  const auto decode = [](std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+') out += ' ';
      else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
        i += 2;
      } else out += s[i];
    }
    return out;
  };
  std::map<std::string, std::string> fields;
  while (!text.empty()) {
    const std::size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    const std::size_t eq = pair.find('=');
    fields[decode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return fields;
}

bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string random_token() {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += static_cast<std::size_t>(n);
    else if (errno != EINTR) throw std::runtime_error("getrandom failed: no token for the review page");
  }
  std::string hex;
  for (unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  return hex;
}

Response answer(const Request& req, http::status status, std::string body) {
  Response res{status, req.version()};
  res.set(http::field::content_type, "text/html; charset=utf-8");
  res.set("Content-Security-Policy",
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

ReviewsInForce reviews_in_force(const ReviewSite& site) {
  return grading::latest_reviews(grading::load_reviews(grading::reviews_path(site.out_dir)).history);
}

std::optional<std::size_t> page_number(const std::string& text, const ReviewSite& site) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const std::size_t n = std::stoul(text);
  if (n >= site.submissions.size()) return std::nullopt;
  return n;
}

// A posted review: bound to the result and checked like `--set`; refused with the reason.
Response record_review(const Request& req, ReviewSite& site) {
  auto fields = form_fields(req.body());
  const auto index = page_number(fields["s"], site);
  if (!index) return answer(req, http::status::bad_request, message_page("no such submission", "the form names no submission of this out folder"));
  const std::string& submission = site.submissions[*index];
  const ReviewsInForce before = reviews_in_force(site);
  grading::Review r;
  r.submission = submission;
  r.criterion = fields["criterion"];
  const auto verdict = grading::parse_grader_verdict(fields["verdict"]);
  r.justification = fields["why"];
  r.reviewer = fields["reviewer"].empty() ? site.reviewer : fields["reviewer"];
  r.time = grading::utc_now();
  r.blind = tool_hidden(site, submission, before);
  std::string problem;
  if (!verdict) problem = "choose a verdict";
  else {
    r.verdict = *verdict;
    try {
      grading::bind_review(r, site.lines.at(submission));
      const bool unjustified = r.justification.find_first_not_of(" \t\r\n") == std::string::npos;
      // Blind, the grader cannot know whether they overrule: every PASS or FAIL needs its reason,
      // and a refusal must not give the tool's verdict away.
      if (r.blind && r.verdict == grading::GraderVerdict::agree) problem = "the tool's verdict is hidden: give your own";
      else if (r.blind && r.verdict != grading::GraderVerdict::cannot_tell && unjustified)
        problem = "a justification is required for PASS or FAIL while the tool's verdict is hidden";
      else problem = grading::review_problem(r);
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  if (!problem.empty())
    return answer(req, http::status::bad_request, submission_page(site, *index, before, "not recorded: " + problem));
  grading::append_reviews(grading::reviews_path(site.out_dir), {r});
  Response res = answer(req, http::status::see_other, "");
  res.set(http::field::location, fmt::format("/s/{}?token={}", *index, site.token));
  return res;
}

Response handle(const Request& req, ReviewSite& site, const std::string& host_a, const std::string& host_b) {
  const std::string host(req[http::field::host]);
  if (host != host_a && host != host_b)
    return answer(req, http::status::forbidden, message_page("refused", "this page answers on the loopback address only"));
  const std::string target(req.target());
  const std::size_t q = target.find('?');
  const std::string path = target.substr(0, q);
  auto query = form_fields(q == std::string::npos ? std::string_view() : std::string_view(target).substr(q + 1));
  if (!same_secret(query["token"], site.token))
    return answer(req, http::status::forbidden, message_page("refused", "the URL's token is missing or wrong: use the URL `rubric review` printed"));
  try {
    if (req.method() == http::verb::get && path == "/") return answer(req, http::status::ok, queue_page(site, reviews_in_force(site)));
    if (req.method() == http::verb::get && path.rfind("/s/", 0) == 0) {
      const auto index = page_number(path.substr(3), site);
      if (!index) return answer(req, http::status::not_found, message_page("not found", "no such submission"));
      return answer(req, http::status::ok, submission_page(site, *index, reviews_in_force(site), ""));
    }
    if (req.method() == http::verb::post && path == "/review") return record_review(req, site);
  } catch (const std::exception& e) {
    return answer(req, http::status::internal_server_error, message_page("error", e.what()));
  }
  return answer(req, http::status::not_found, message_page("not found", "no such page"));
}

void serve_connection(tcp::socket socket, ReviewSite& site, const std::string& host_a, const std::string& host_b) {
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(kBodyLimit);
    http::read(socket, buffer, parser, ec);
    if (ec) break;
    Response res = handle(parser.get(), site, host_a, host_b);
    res.keep_alive(parser.get().keep_alive());
    http::write(socket, res, ec);
    if (ec || !res.keep_alive()) break;
  }
  socket.shutdown(tcp::socket::shutdown_send, ec);
}

}  // namespace

int serve_reviews(ReviewSite& site, std::uint16_t port) {
  site.token = random_token();
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  beast::error_code ec;
  const tcp::endpoint endpoint{net::ip::make_address("127.0.0.1"), port};
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    fmt::print(stderr, "rubric review: cannot listen on 127.0.0.1:{}: {}\n", port, ec.message());
    return 2;
  }
  const unsigned bound = acceptor.local_endpoint().port();
  const std::string host_a = fmt::format("127.0.0.1:{}", bound), host_b = fmt::format("localhost:{}", bound);
  fmt::print("review page: http://127.0.0.1:{}/?token={}\n", bound, site.token);
  std::fflush(stdout);
  for (;;) {
    tcp::socket socket{ioc};
    acceptor.accept(socket, ec);
    if (ec) continue;
    // One thread a connection: reviews are appended under flock, the lines never change.
    std::thread(serve_connection, std::move(socket), std::ref(site), host_a, host_b).detach();
  }
}

}  // namespace rubric::cli
