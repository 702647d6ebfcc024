#include "report/svg_plots.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "report/number_format.hpp"
#include "operators/text/utf8.hpp"

namespace rubric::report {
namespace {

constexpr int kWidth = 720;
constexpr int kLeft = 220;   // room for the series labels
constexpr int kRight = 24;
constexpr std::size_t kMaxDots = 2000;  // per series; more are thinned evenly over the sorted values

// A unit with an SI prefix chosen for the largest magnitude shown: values divide by `factor`.
struct Scale {
  double factor = 1;
  std::string unit;
};

Scale scale_for(double magnitude, const std::string& base_unit) {
  if (base_unit.empty() || !std::isfinite(magnitude) || magnitude == 0) return {1, base_unit};
  static const std::pair<double, const char*> prefixes[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "\xC2\xB5"}, {1e-9, "n"}};
  for (const auto& [factor, prefix] : prefixes)
    if (magnitude >= factor) return {factor, prefix + base_unit};
  return {1e-9, "n" + base_unit};
}

// About `count` round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, int count) {
  std::vector<double> out;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / count;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

std::string label_text(const std::string& s, std::size_t width) { return html_escape(text::truncate_to_width(s, width)); }

class Axis {
 public:
  Axis(double lo, double hi, double x0, double x1) : lo_(lo), hi_(hi), x0_(x0), x1_(x1) {
    if (!(hi_ > lo_)) {  // one value: a unit-wide window around it
      const double pad = lo_ == 0 ? 1 : std::abs(lo_) * 0.05;
      lo_ -= pad;
      hi_ += pad;
    }
  }
  double x(double v) const { return x0_ + (v - lo_) / (hi_ - lo_) * (x1_ - x0_); }
  double lo() const { return lo_; }
  double hi() const { return hi_; }

  // Tick marks and labels along y, in `scale`.
  std::string draw(double y, const Scale& scale) const {
    std::string out = fmt::format(R"(<line class="axis" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", x0_, y, x1_, y);
    for (double t : ticks(lo_, hi_, 5)) {
      const double tx = x(t);
      out += fmt::format(R"(<line class="tick" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", tx, y, tx, y + 4);
      out += fmt::format(R"(<text class="tick-label" x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)", tx, y + 16,
                         html_escape(format_number(t / scale.factor)));
    }
    if (!scale.unit.empty())
      out += fmt::format(R"(<text class="unit" x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)", x1_, y + 30,
                         html_escape(scale.unit));
    return out;
  }

 private:
  double lo_, hi_, x0_, x1_;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string svg_sample_plot(const SamplePlot& plot) {
  // Panel 1: the samples of every side.
  double lo = INFINITY, hi = -INFINITY;
  for (const SampleSeries& s : plot.series)
    for (double v : s.values)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  const bool have_samples = lo <= hi;
  const int row_height = 30;
  const int samples_height = have_samples ? 20 + row_height * int(plot.series.size()) + 36 : 0;
  const int interval_top = samples_height + 10;
  const int height = interval_top + 96;
  std::string out = fmt::format(
      R"(<svg class="plot samples" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img">)",
      kWidth, height, kWidth, height);
  out += fmt::format("<title>{}</title>", html_escape("samples of " + plot.quantity));
  if (have_samples) {
    const double pad = (hi - lo) * 0.05;
    const Axis axis(lo - pad, hi + pad, kLeft, kWidth - kRight);
    const Scale scale = scale_for(std::max(std::abs(lo), std::abs(hi)), plot.unit);
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
      const SampleSeries& s = plot.series[i];
      const double y = 20 + row_height * double(i) + row_height / 2.0;
      out += fmt::format(R"(<text class="series-label" x="{}" y="{:.1f}" text-anchor="end">{}</text>)", kLeft - 8, y + 4,
                         label_text(s.label, 34));
      std::vector<double> sorted;
      for (double v : s.values)
        if (std::isfinite(v)) sorted.push_back(v);
      std::sort(sorted.begin(), sorted.end());
      const std::size_t n = sorted.size();
      const std::size_t shown = std::min(n, kMaxDots);
      for (std::size_t k = 0; k < shown; ++k) {
        const double v = sorted[shown == n ? k : k * (n - 1) / (shown > 1 ? shown - 1 : 1)];
        const double jitter = (double((k * 7919) % 17) / 16.0 - 0.5) * (row_height - 12);  // deterministic spread
        out += fmt::format(R"(<circle class="dot" cx="{:.1f}" cy="{:.1f}" r="3"/>)", axis.x(v), y + jitter);
      }
      if (n) {
        const double m = axis.x(median_of(sorted));
        out += fmt::format(R"(<line class="median" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", m, y - 12, m, y + 12);
      }
    }
    out += axis.draw(20 + row_height * double(plot.series.size()) + 4, scale);
  }

  // Panel 2: the decided quantity, its interval and the bound, the passing side shaded.
  double qlo = std::min({plot.lo, plot.hi, plot.bound, plot.estimate});
  double qhi = std::max({plot.lo, plot.hi, plot.bound, plot.estimate});
  const double qpad = (qhi - qlo) * 0.15 + (qhi == qlo ? std::max(std::abs(qhi) * 0.05, 1e-12) : 0);
  const Axis q(qlo - qpad, qhi + qpad, kLeft, kWidth - kRight);
  const Scale qscale = scale_for(std::max(std::abs(q.lo()), std::abs(q.hi())), plot.quantity_unit);
  const double band_top = interval_top + 8, band_height = 44;
  const double bx = q.x(plot.bound);
  const double pass_x0 = plot.at_least ? bx : q.x(q.lo());
  const double pass_x1 = plot.at_least ? q.x(q.hi()) : bx;
  out += fmt::format(R"(<rect class="passing-side" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"/>)", pass_x0, band_top,
                     std::max(0.0, pass_x1 - pass_x0), band_height);
  out += fmt::format(R"(<text class="series-label" x="{}" y="{:.1f}" text-anchor="end">{}</text>)", kLeft - 8,
                     band_top + band_height / 2 + 4, label_text(plot.quantity, 34));
  const double mid = band_top + band_height / 2;
  out += fmt::format(R"(<line class="interval" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", q.x(plot.lo), mid,
                     q.x(plot.hi), mid);
  out += fmt::format(R"(<circle class="estimate" cx="{:.1f}" cy="{:.1f}" r="5"/>)", q.x(plot.estimate), mid);
  out += fmt::format(R"(<line class="bound" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", bx, band_top - 4, bx,
                     band_top + band_height + 4);
  out += fmt::format(R"(<text class="bound-label" x="{:.1f}" y="{:.1f}" text-anchor="middle">{} {}</text>)", bx, band_top - 7,
                     plot.at_least ? "&#8805;" : "&#8804;", html_escape(format_number(plot.bound / qscale.factor)));
  out += q.draw(band_top + band_height + 6, qscale);
  out += "</svg>";
  return out;
}

std::string svg_mismatch_map(const MismatchMap& map) {
  if (map.grid_rows == 0 || map.grid_cols == 0 || map.mismatches.size() != std::size_t(map.grid_rows) * map.grid_cols)
    return "";
  const int cell = std::max(2, std::min(10, 480 / int(std::max(map.grid_rows, map.grid_cols))));
  const int left = 48, top = 24;
  const int width = left + cell * int(map.grid_cols) + 16, height = top + cell * int(map.grid_rows) + 24;
  std::string out = fmt::format(
      R"(<svg class="plot mismatch-map" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img">)",
      width, height, width, height);
  out += fmt::format("<title>mismatches over {} x {}</title>", map.rows, map.cols);
  out += fmt::format(R"(<rect class="map-frame" x="{}" y="{}" width="{}" height="{}"/>)", left, top, cell * int(map.grid_cols),
                     cell * int(map.grid_rows));
  for (std::uint32_t r = 0; r < map.grid_rows; ++r) {
    for (std::uint32_t c = 0; c < map.grid_cols; ++c) {
      const std::size_t i = std::size_t(r) * map.grid_cols + c;
      if (map.mismatches[i] == 0 || map.elements[i] == 0) continue;
      const double fraction = double(map.mismatches[i]) / double(map.elements[i]);
      // Any mismatch is visible (at least 25% opacity); a cell that is all wrong is solid.
      out += fmt::format(R"(<rect class="cell" x="{}" y="{}" width="{}" height="{}" fill-opacity="{:.2f}"/>)",
                         left + cell * int(c), top + cell * int(r), cell, cell, 0.25 + 0.75 * fraction);
    }
  }
  out += fmt::format(R"(<text class="tick-label" x="{}" y="{}">0</text>)", left - 14, top + 10);
  out += fmt::format(R"(<text class="tick-label" x="{}" y="{}" text-anchor="end">{}</text>)", left - 4,
                     top + cell * int(map.grid_rows), map.rows);
  out += fmt::format(R"(<text class="tick-label" x="{}" y="{}" text-anchor="end">{}</text>)", left + cell * int(map.grid_cols),
                     top - 8, map.cols);
  out += fmt::format(R"(<text class="unit" x="{}" y="{}">rows &#8595; · cols &#8594;</text>)", left, height - 6);
  out += "</svg>";
  return out;
}

}  // namespace rubric::report
