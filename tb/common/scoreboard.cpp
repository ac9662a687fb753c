#include "scoreboard.h"

#include <cinttypes>
#include <cstdio>

namespace hwprof::tb {

namespace {
std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}
std::string outputs_str(const std::vector<Field>& fields, bool actual) {
  std::string s;
  for (const auto& f : fields) {
    if (!f.care) continue;
    if (!s.empty()) s += ' ';
    s += f.name;
    s += '=';
    s += hex(actual ? f.actual : f.expected);
  }
  return s;
}
}  // namespace

bool Scoreboard::check(uint64_t cycle, const std::string& inputs, const std::vector<Field>& fields) {
  if (failed_ && cycle >= hold_until_) return false;
  ++checked_;
  if (wave_.compare) wave_.compare->record(cycle, fields);
  if (failed_) return true;  // the failure re-run records past the mismatch
  std::string bad;
  for (const auto& f : fields)
    if (f.care && f.expected != f.actual)
      bad += "    " + std::string(f.name) + ": expected " + hex(f.expected) + ", actual " + hex(f.actual) + "\n";
  if (bad.empty()) {
    if (depth_ == 0) return true;
    if (ring_.size() < depth_) ring_.resize(depth_);
    Seen& h = ring_[ring_next_];
    h.cycle = cycle;
    h.inputs.assign(inputs);
    h.fields.assign(fields.begin(), fields.end());
    ring_next_ = (ring_next_ + 1) % depth_;
    if (ring_used_ < depth_) ++ring_used_;
    return true;
  }
  failed_ = true;
  report_ = "lock-step mismatch in " + unit_ + " at cycle " + std::to_string(cycle) + " (seed " +
            std::to_string(seed_) + ")\n  inputs: " + inputs + "\n  mismatching outputs:\n" + bad +
            "  expected: " + outputs_str(fields, false) + "\n  actual:   " + outputs_str(fields, true) +
            "\n  last " + std::to_string(ring_used_) + " cycles (all matched):\n";
  for (size_t k = 0; k < ring_used_; ++k) {
    const Seen& h = ring_[(ring_next_ + depth_ - ring_used_ + k) % depth_];
    report_ += "    cycle " + std::to_string(h.cycle) + "  in: " + h.inputs + "\n      out: " +
               outputs_str(h.fields, false) + "\n";
  }
  report_ += "  replay: SEED=" + std::to_string(seed_) + " TRACE=1 <test binary> (or make wave TEST=...)\n";
  if (!note_.empty()) report_ += "  " + note_ + "\n";
  if (wave_.compare) wave_.compare->set_marker(cycle);
  if (const uint64_t hold = fail_wave_mismatch(wave_, cycle, unit_, report_)) {
    hold_until_ = cycle + hold;
    return true;
  }
  return false;
}

}  // namespace hwprof::tb
