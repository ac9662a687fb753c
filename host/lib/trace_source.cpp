#include "trace_source.h"

#include <memory>

#include "rap_source.h"

namespace hwprof::trace {

namespace {
constexpr unsigned kRap2dDimBits = 32;  // K of the 2-D engine (RangeW = 64)
}  // namespace

static_assert(uint8_t(Kind::Br) == uint8_t(model::BranchKind::Br) &&
                  uint8_t(Kind::Jmp) == uint8_t(model::BranchKind::Jmp) &&
                  uint8_t(Kind::Ijmp) == uint8_t(model::BranchKind::Ijmp) &&
                  uint8_t(Kind::Call) == uint8_t(model::BranchKind::Call) &&
                  uint8_t(Kind::Icall) == uint8_t(model::BranchKind::Icall) &&
                  uint8_t(Kind::Ret) == uint8_t(model::BranchKind::Ret),
              "trace::Kind and model::BranchKind share their codes");

model::BranchRecord branch_record(const Record& r) {
  return model::BranchRecord::make(static_cast<model::BranchKind>(r.kind), r.pc, r.target, r.taken, r.ilen, r.insns,
                                   r.events);
}

model::RecordSource branch_source(const std::string& path) {
  std::shared_ptr<Reader> rd = Reader::open(path);
  return [rd](model::BranchRecord& b) {
    Record r;
    while (rd->next(r))
      if (r.is_branch()) {
        b = branch_record(r);
        return true;
      }
    return false;
  };
}

model::RapEventSource rap_source(const std::string& path, RapSourceKind kind, uint64_t limit) {
  if (kind == RapSourceKind::Code) return model::rap_code_source(branch_source(path), limit);
  std::shared_ptr<Reader> rd = Reader::open(path);
  auto count = std::make_shared<uint64_t>(0);
  const bool pair = kind == RapSourceKind::Pair;
  return [rd, count, limit, pair](model::RapEvent& e) {
    if (limit && *count >= limit) return false;
    Record r;
    while (rd->next(r)) {
      if (r.is_branch()) continue;
      if (pair && !r.has_pc) continue;
      e = pair ? model::rap_pair_event(r.pc, r.value, r.weight, kRap2dDimBits)
               : model::rap_value_event(r.value, r.weight);
      ++*count;
      return true;
    }
    return false;
  };
}

}  // namespace hwprof::trace
