#include "branch_record.h"

#include <algorithm>
#include <cstdio>

namespace hwprof::model {

const char* kind_name(BranchKind k) {
  static const char* const names[kNumBranchKinds] = {"br", "jmp", "ijmp", "call", "icall", "ret"};
  return names[static_cast<unsigned>(k)];
}

BranchRecord BranchRecord::make(BranchKind kind, uint64_t pc, uint64_t target, bool taken, uint8_t ilen,
                                uint32_t insns, uint32_t events) {
  BranchRecord b;
  b.kind = static_cast<uint8_t>(kind);
  b.pc = static_cast<uint32_t>(pc);
  b.target = static_cast<uint32_t>(target);
  b.taken = taken;
  b.ilen = ilen;
  b.insns = static_cast<uint16_t>(std::min<uint32_t>(insns, (1u << kInsnsW) - 1));
  b.events = static_cast<uint8_t>(std::min<uint32_t>(events, (1u << kEventsW) - 1));
  return b;
}

namespace {
// Bit field [lsb, lsb+width) of a 96-bit little-endian word array.
void put_bits(std::array<uint32_t, 3>& w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i)
    if ((v >> i) & 1) w[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
}
uint64_t get_bits(const std::array<uint32_t, 3>& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= uint64_t((w[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1) << i;
  return v;
}
}  // namespace

// Bit positions of the packed struct, LSB first: events[7:0], insns[23:8],
// ilen[27:24], taken[28], target[60:29], pc[92:61], kind[95:93].
std::array<uint32_t, 3> BranchRecord::pack() const {
  std::array<uint32_t, 3> w{};
  put_bits(w, 93, 3, kind);
  put_bits(w, 61, kAddrW, pc);
  put_bits(w, 29, kAddrW, target);
  put_bits(w, 28, 1, taken);
  put_bits(w, 24, 4, ilen);
  put_bits(w, 8, kInsnsW, insns);
  put_bits(w, 0, kEventsW, events);
  return w;
}

BranchRecord BranchRecord::unpack(const std::array<uint32_t, 3>& w) {
  BranchRecord b;
  b.kind = static_cast<uint8_t>(get_bits(w, 93, 3));
  b.pc = static_cast<uint32_t>(get_bits(w, 61, kAddrW));
  b.target = static_cast<uint32_t>(get_bits(w, 29, kAddrW));
  b.taken = get_bits(w, 28, 1) != 0;
  b.ilen = static_cast<uint8_t>(get_bits(w, 24, 4));
  b.insns = static_cast<uint16_t>(get_bits(w, 8, kInsnsW));
  b.events = static_cast<uint8_t>(get_bits(w, 0, kEventsW));
  return b;
}

std::string BranchRecord::str() const {
  char buf[96];
  const char* k = kind < kNumBranchKinds ? kind_name(static_cast<BranchKind>(kind)) : "?";
  std::snprintf(buf, sizeof buf, "%s %08x %08x %d %u %u %u", k, pc, target, taken ? 1 : 0, ilen, insns, events);
  return buf;
}

const char* class_name(BranchClass c) {
  static const char* const names[] = {"forward", "backward", "call", "return", "indirect"};
  return names[static_cast<int>(c)];
}

BranchClass classify(const BranchRecord& r) {
  switch (static_cast<BranchKind>(r.kind)) {
    case BranchKind::Call:
    case BranchKind::Icall:
      return BranchClass::Call;
    case BranchKind::Ret:
      return BranchClass::Return;
    case BranchKind::Ijmp:
      return BranchClass::Indirect;
    default:
      return (r.taken && r.target <= r.pc) ? BranchClass::Backward : BranchClass::Forward;
  }
}

}  // namespace hwprof::model
