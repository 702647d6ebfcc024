// std.concepts: each concept on sentences it must find stated and sentences it must not find.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "tests/interpreter/helpers.hpp"

namespace {

struct Case {
  const char* concept;
  std::vector<const char*> must;      // polarity "affirmed"
  std::vector<const char*> must_not;  // polarity "absent"
};

const std::vector<Case> kCases = {
    {"bank_conflict",
     {"The transpose suffers from 32-way bank conflicts.", "The threads of a warp collide on one bank.",
      "The fix is conflict-free indexing of the tile.", "All 32 threads hit the same bank.",
      "Accesses to one bank are serialized across the warp.", "A stride of 32 floats maps every thread to bank 0."},
     {"The bank transfer failed.", "There is a conflict between the two patches.", "The kernel reads global memory.",
      "The counter reads 3 replays."}},
    {"coalescing",
     {"The loads are uncoalesced.", "Coalesced accesses halve the runtime.", "The strided access pattern wastes bandwidth.",
      "Each warp issues 32 memory transactions for one load."},
     {"The requests are batched together.", "We merged the two kernels."}},
    {"occupancy",
     {"Occupancy drops to 25%.", "Only 16 active warps fit on an SM.", "Two blocks per SM because of shared memory."},
     {"The GPU is busy.", "The room is full."}},
    {"register_spill",
     {"The kernel spills 48 registers to local memory.", "ptxas reports register spills.", "Spilled registers go to local memory.",
      "Spill stores appear in the SASS."},
     {"The coffee spilled on the keyboard.", "The registers are fine."}},
    {"kv_cache_eviction",
     {"KV-cache eviction throws out the oldest blocks.", "The eviction policy is LRU.", "Blocks are evicted from the KV cache.",
      "The scheduler evicts cache blocks under pressure."},
     {"The landlord evicted the tenant.", "The cache is large."}},
    {"prefix_caching",
     {"Prefix caching reuses the system prompt.", "The prefix cache hit rate dropped.", "SGLang's radix cache shares the prefix.",
      "Automatic prefix caching is on."},
     {"The prompt is long.", "The cache hit rate of the CPU is fine."}},
    {"attention_sink",
     {"The attention sinks are evicted first.", "Keep the sink tokens in the cache.", "The first tokens receive most of the attention.",
      "Evicting the attention-sink blocks collapses quality."},
     {"The heat sink is too small.", "The kitchen sink is full.", "Attention to detail matters."}},
    {"recomputation",
     {"The server re-runs prefill for the evicted blocks.", "Evicted blocks must be recomputed.", "Recomputation doubles the prefill cost.",
      "Prefill runs again after preemption."},
     {"The server computes the logits.", "Prefill is fast."}},
    {"preemption",
     {"The scheduler preempts long requests.", "Preemption happens under memory pressure.", "Requests are swapped out to CPU memory."},
     {"The scheduler is fair.", "The requests finish quickly."}},
    {"reduction_order",
     {"The result depends on the reduction order.", "Floating-point addition is not associative.",
      "Changing the order of summation changes the last bits.", "The order of the tree reduction differs."},
     {"The order of the arguments is wrong.", "The reduction is fast."}},
    {"accumulation_precision",
     {"Accumulate in fp32 instead of fp16.", "The accumulator's precision is too low.", "Use Kahan summation.",
      "fp16 accumulation loses digits."},
     {"The precision of the timer is 1 us.", "The accumulated delay is 3 ms."}},
    {"all_reduce",
     {"The all-reduce dominates the step time.", "NCCL's allreduce is slow on PCIe.", "A reduce-scatter replaces the all-reduce."},
     {"Reduce the batch size.", "All requests finished."}},
    {"sharding",
     {"Shard the weights across 8 GPUs.", "Tensor parallelism splits each layer.", "The embedding is sharded column-wise.",
      "Column-parallel linear layers need an all-gather."},
     {"The shards of glass were swept.", "The model runs on one GPU."}},
};

std::string quoted(const char* s) {
  std::string out = "\"";
  for (const char* p = s; *p; ++p) out += (*p == '"' || *p == '\\') ? std::string("\\") + *p : std::string(1, *p);
  return out + "\"";
}

}  // namespace

TEST_CASE("std.concepts: every concept on must and must-not sentences") {
  rubric::test::TempDir dir;
  dir.dir("sub");
  dir.dir("ref");
  std::string text = "rubric \"vocabulary\" {}\nuse std.concepts\n";
  int id = 0;
  for (const auto& c : kCases) {
    text += fmt::format("criterion c{} \"{}\" {{\n", id++, c.concept);
    for (const char* s : c.must) text += fmt::format("  expect polarity({}, {}) == \"affirmed\"\n", quoted(s), c.concept);
    for (const char* s : c.must_not) text += fmt::format("  expect polarity({}, {}) == \"absent\"\n", quoted(s), c.concept);
    text += "}\n";
  }
  rubric::Report r = rubric::test::run_text(text, dir.path + "/sub", dir.path + "/ref");
  INFO(r.title);
  REQUIRE(r.criteria.size() == kCases.size());
  for (const auto& c : r.criteria)
    for (const auto& k : c.checks) {
      INFO(c.title, ": ", k.source_text, " → ", k.explanation);
      CHECK(k.verdict == rubric::Verdict::pass);
    }
}
