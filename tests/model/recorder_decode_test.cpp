// The recorder's instruction classifier (host/record/recorder.h, decode_insn)
// on hand-assembled x86-64 instructions.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "recorder.h"

using hwprof::record::decode_insn;
using hwprof::record::InsnInfo;
using hwprof::trace::Kind;

namespace {
InsnInfo dec(uint64_t pc, std::vector<uint8_t> b) { return decode_insn("x86_64", pc, b.data(), b.size()); }
}  // namespace

BOOST_AUTO_TEST_SUITE(recorder_decode)

BOOST_AUTO_TEST_CASE(ClassifiesX86ControlFlow) {
  auto call = dec(0x40028fbb73, {0xe8, 0xf8, 0x0b, 0x00, 0x00});  // call rel32 (the NOTES example)
  BOOST_TEST(call.is_cf);
  BOOST_TEST((call.kind == Kind::Call));
  BOOST_TEST(call.direct);
  BOOST_TEST(call.len == 5);
  BOOST_TEST(call.target == 0x40028fc770ull);

  auto je = dec(0x1000, {0x74, 0x05});  // je +5
  BOOST_TEST((je.kind == Kind::Br));
  BOOST_TEST(je.target == 0x1007ull);

  auto jmp = dec(0x2000, {0xeb, 0xfe});  // jmp to itself
  BOOST_TEST((jmp.kind == Kind::Jmp));
  BOOST_TEST(jmp.target == 0x2000ull);

  BOOST_TEST((dec(0x3000, {0xff, 0xe0}).kind == Kind::Ijmp));   // jmp rax
  BOOST_TEST((dec(0x3000, {0xff, 0xd0}).kind == Kind::Icall));  // call rax
  BOOST_TEST((dec(0x3000, {0xc3}).kind == Kind::Ret));          // ret
  BOOST_TEST(dec(0x3000, {0xf3, 0x0f, 0x1e, 0xfa}).is_cf == false);  // endbr64

  auto mov = dec(0x4000, {0x48, 0x8b, 0x07});  // mov rax, [rdi]
  BOOST_TEST(!mov.is_cf);
  BOOST_TEST(mov.mem);
  BOOST_TEST(mov.len == 3);
  BOOST_TEST(!dec(0x4000, {0x48, 0x89, 0xc7}).mem);  // mov rdi, rax
}

BOOST_AUTO_TEST_SUITE_END()
