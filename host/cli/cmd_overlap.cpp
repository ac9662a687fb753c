// hwprof overlap: the overlap percentage (spec section 8) between two path
// profiles in the JSON format of docs/formats.md ("Path profile (JSON)"):
// an exact one (hwprof paths --json) and a measured one (hwprof profile
// --unit path --json, or another exact profile).
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "commands.h"
#include "hpt_algo.h"

namespace hwprof::cli {

namespace {

struct OverlapOpts {
  std::string exact;
  std::string hw;
  std::string metric = "count";
  bool json = false;
};

struct LoadedProfile {
  std::vector<model::WeightedPath> paths;
  uint64_t total = 0;
};

uint32_t hex_field(const std::string& file, size_t i, const nlohmann::json& p, const char* name) {
  const auto it = p.find(name);
  if (it == p.end()) throw std::runtime_error(fmt::format("{}: paths[{}]: missing field '{}'", file, i, name));
  if (!it->is_string())
    throw std::runtime_error(fmt::format("{}: paths[{}].{}: expected a hex string, got {}", file, i, name, it->dump()));
  const std::string s = it->get<std::string>();
  const auto is_hex = [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; };
  if (s.empty() || s.size() > 8 || !std::all_of(s.begin(), s.end(), is_hex))
    throw std::runtime_error(
        fmt::format("{}: paths[{}].{}: '{}' is not a 32-bit hex string (no 0x)", file, i, name, s));
  const unsigned long v = std::stoul(s, nullptr, 16);
  return static_cast<uint32_t>(v);
}

uint64_t uint_field(const std::string& file, size_t i, const nlohmann::json& p, const char* name) {
  const auto it = p.find(name);
  if (it == p.end()) throw std::runtime_error(fmt::format("{}: paths[{}]: missing field '{}'", file, i, name));
  if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<int64_t>() >= 0))
    throw std::runtime_error(
        fmt::format("{}: paths[{}].{}: expected a non-negative integer, got {}", file, i, name, it->dump()));
  return it->get<uint64_t>();
}

LoadedProfile load_profile(const std::string& file, const std::string& metric) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open: {}", file, std::strerror(errno)));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", file, e.what()));
  }
  if (!j.is_object() || !j.contains("paths"))
    throw std::runtime_error(fmt::format("{}: missing field 'paths' (not a path profile, docs/formats.md)", file));
  const auto& arr = j["paths"];
  if (!arr.is_array()) throw std::runtime_error(fmt::format("{}: field 'paths' is not a list", file));
  LoadedProfile lp;
  lp.paths.reserve(arr.size());
  for (size_t i = 0; i < arr.size(); ++i) {
    const auto& p = arr[i];
    if (!p.is_object()) throw std::runtime_error(fmt::format("{}: paths[{}] is not an object", file, i));
    model::WeightedPath w;
    w.key.start = hex_field(file, i, p, "start");
    w.key.dirs = hex_field(file, i, p, "dirs");
    const uint64_t len = uint_field(file, i, p, "length");
    if (len > model::kMaxMaxLen)
      throw std::runtime_error(
          fmt::format("{}: paths[{}].length: {} is more than {}", file, i, len, model::kMaxMaxLen));
    w.key.length = static_cast<uint8_t>(len);
    w.weight = uint_field(file, i, p, metric.c_str());
    // The overlap divides by the total: a sum that wraps would give any
    // percentage (found by fuzz/fuzz_overlap.cpp).
    if (w.weight > UINT64_MAX - lp.total)
      throw std::runtime_error(
          fmt::format("{}: paths[{}].{}: the {} weights add up to more than 2^64 - 1", file, i, metric, metric));
    lp.total += w.weight;
    lp.paths.push_back(w);
  }
  return lp;
}

// Sums the weights of repeated keys (an HPT dump may hold one key twice
// after an index change, docs/hpt.md "Registers").
std::vector<model::WeightedPath> merged(const std::vector<model::WeightedPath>& v) {
  std::unordered_map<model::PathKey, size_t, model::PathKeyHash> at;
  std::vector<model::WeightedPath> out;
  for (const auto& p : v) {
    auto [it, fresh] = at.try_emplace(p.key, out.size());
    if (fresh)
      out.push_back(p);
    else
      out[it->second].weight += p.weight;
  }
  return out;
}

void run_overlap(const OverlapOpts& o) {
  const LoadedProfile ex = load_profile(o.exact, o.metric);
  const LoadedProfile hw = load_profile(o.hw, o.metric);
  const auto exact = merged(ex.paths);
  const auto measured = merged(hw.paths);
  const double ov = model::path_overlap(exact, measured);
  const double oracle = model::oracle_overlap(exact, measured.size());
  std::unordered_map<model::PathKey, bool, model::PathKeyHash> in_exact;
  for (const auto& p : exact) in_exact[p.key] = true;
  size_t common = 0;
  for (const auto& p : measured) common += in_exact.count(p.key);
  if (o.json) {
    nlohmann::json j;
    j["overlap_percent"] = ov;
    j["oracle_percent"] = oracle;
    j["metric"] = o.metric;
    j["exact"] = {{"file", o.exact}, {"paths", exact.size()}, {"total", ex.total}};
    j["hw"] = {{"file", o.hw}, {"paths", measured.size()}, {"total", hw.total}, {"in_exact", common}};
    fmt::print("{}\n", j.dump(1));
    return;
  }
  fmt::print("overlap {:.2f}% (metric {})\n", ov, o.metric);
  fmt::print("  exact  {}: {} paths, total {}\n", o.exact, exact.size(), ex.total);
  fmt::print("  hw     {}: {} paths ({} of them in the exact profile), total {}\n", o.hw, measured.size(), common,
             hw.total);
  fmt::print("  oracle {:.2f}% (the {} heaviest exact paths with exact weights)\n", oracle, measured.size());
}

}  // namespace

void add_overlap_command(CLI::App& app, Global&) {
  auto o = std::make_shared<OverlapOpts>();
  auto* c = app.add_subcommand("overlap", "overlap percentage between an exact and a measured path profile (JSON)");
  c->add_option("--metric", o->metric, "weight field of each path: count, insns or events")
      ->check(CLI::IsMember({"count", "insns", "events"}))
      ->capture_default_str();
  c->add_flag("--json", o->json, "JSON: overlap_percent, oracle_percent, metric, exact and hw summaries");
  c->add_option("EXACT", o->exact, "exact path profile (hwprof paths --json)")->required();
  c->add_option("HW", o->hw, "measured path profile (hwprof profile --unit path --json)")->required();
  c->callback([o] { run_overlap(*o); });
}

}  // namespace hwprof::cli
