// Trace readers and writers: text v1 and binary HWPT v1 (docs/formats.md).
#include "trace.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "byte_io.h"

namespace hwprof::trace {

namespace {

constexpr std::array<std::string_view, kNumKinds> kKindNames = {"br",    "jmp", "ijmp", "call",
                                                                 "icall", "ret", "val"};
constexpr char kTextMagic[] = "#hwprof-trace";
constexpr char kBinMagic[8] = {'H', 'W', 'P', 'T', 'R', 'A', 'C', 'E'};
constexpr uint8_t kBinVersion = 1;
constexpr uint8_t kEndTag = 0xff;
constexpr char kEndMagic[4] = {'E', 'N', 'D', '!'};

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// ---------------------------------------------------------------- text reader

class TextReader : public Reader {
 public:
  TextReader(std::unique_ptr<ByteSource> src) : src_(std::move(src)) {
    header_.format = Format::Text;
    header_.compressed = src_->compressed();
    file_size_ = src_->file_size();
    if (!src_->getline(line_)) fail_line("header", "empty file: missing header '#hwprof-trace v1'");
    line_no_ = 1;
    strip_cr();
    parse_header();
  }

  bool next(Record& r) override {
    for (;;) {
      if (!src_->getline(line_)) return false;
      ++line_no_;
      strip_cr();
      if (line_.empty() || line_[0] == '#') continue;
      parse_record(r);
      return true;
    }
  }
  uint64_t bytes_consumed() const override { return src_->raw_consumed(); }

 private:
  [[noreturn]] void fail_line(const std::string& field, const std::string& why) const {
    std::string loc = src_->path() + ":" + std::to_string(line_no_ ? line_no_ : 1) + ": ";
    if (!field.empty() && field != "header" && field != "line") loc += "field '" + field + "': ";
    throw TraceError(loc + why);
  }

  void strip_cr() {
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  }

  void parse_header() {
    std::string_view l(line_);
    if (l.substr(0, sizeof(kTextMagic) - 1) != kTextMagic)
      fail_line("header", "missing header: the first line must be '#hwprof-trace v1' (got '" +
                              std::string(l.substr(0, 40)) + "')");
    l.remove_prefix(sizeof(kTextMagic) - 1);
    if (l.empty() || (l[0] != ' ' && l[0] != '\t'))
      fail_line("header", "missing version after '#hwprof-trace'");
    // Header words: the version, then key=value pairs.
    bool first = true;
    while (!l.empty()) {
      while (!l.empty() && (l[0] == ' ' || l[0] == '\t')) l.remove_prefix(1);
      if (l.empty()) break;
      size_t e = l.find_first_of(" \t");
      std::string_view w = l.substr(0, e);
      l.remove_prefix(w.size());
      if (first) {
        if (w != "v1") fail_line("header", "unsupported trace version '" + std::string(w) + "' (this tool reads v1)");
        first = false;
      } else if (w.substr(0, 4) == "isa=") {
        header_.isa = std::string(w.substr(4));
        std::string why = check_isa(header_.isa);
        if (!why.empty()) fail_line("isa", why);
      }  // other key=value words are informational and ignored
    }
    if (first) fail_line("header", "missing version after '#hwprof-trace'");
  }

  // Splits line_ into fields separated by exactly one space or tab.
  void split() {
    nfields_ = 0;
    std::string_view l(line_);
    size_t start = 0;
    for (size_t i = 0; i <= l.size(); ++i) {
      if (i == l.size() || l[i] == ' ' || l[i] == '\t') {
        if (i == start) {
          fail_line("line", i == 0 ? "line starts with a separator"
                                   : (i == l.size() ? "trailing separator at end of line"
                                                    : "empty field (two separators in a row) at column " +
                                                          std::to_string(i + 1)));
        }
        if (nfields_ == fields_.size()) fail_line("line", "too many fields (expected at most 7)");
        fields_[nfields_++] = l.substr(start, i - start);
        start = i + 1;
      }
    }
  }

  uint64_t hex(size_t i, const char* name) const {
    std::string_view s = fields_[i];
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
      fail_line(name, "'" + std::string(s) + "': addresses are hex without '0x'");
    if (s.size() > 16) fail_line(name, "'" + std::string(s) + "': more than 64 bits");
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || p != s.data() + s.size())
      fail_line(name, "'" + std::string(s) + "' is not a hex number");
    return v;
  }

  uint64_t dec(size_t i, const char* name, uint64_t max) const {
    std::string_view s = fields_[i];
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && p == s.data() + s.size() && v > max))
      fail_line(name, "'" + std::string(s) + "' is out of range (max " + std::to_string(max) + ")");
    if (ec != std::errc() || p != s.data() + s.size() || s[0] == '+' || s[0] == '-')
      fail_line(name, "'" + std::string(s) + "' is not a decimal number");
    return v;
  }

  void parse_record(Record& r) {
    split();
    r = Record{};
    if (!parse_kind(fields_[0], r.kind))
      fail_line("kind", "unknown kind '" + std::string(fields_[0]) +
                            "' (expected br, jmp, ijmp, call, icall, ret or val)");
    if (r.kind == Kind::Val) {
      if (nfields_ < 2 || nfields_ > 4)
        fail_line("line", "a val record has 2 or 3 fields (val VALUE [WEIGHT]), or 4 with the pc (val VALUE WEIGHT PC), found " + std::to_string(nfields_));
      r.value = hex(1, "value");
      r.weight = nfields_ >= 3 ? static_cast<uint32_t>(dec(2, "weight", UINT32_MAX)) : 1;
      if (nfields_ == 4) {
        r.pc = hex(3, "pc");
        r.has_pc = true;
      }
    } else {
      static constexpr const char* kNames[] = {"kind", "pc", "target", "taken", "ilen", "insns", "events"};
      if (nfields_ != 7)
        fail_line(nfields_ < 7 ? kNames[nfields_] : "line",
                  nfields_ < 7 ? "missing field (a branch record has 7 fields: kind pc target taken ilen insns events)"
                               : "too many fields (a branch record has 7)");
      r.pc = hex(1, "pc");
      r.target = hex(2, "target");
      if (fields_[3] != "0" && fields_[3] != "1")
        fail_line("taken", "'" + std::string(fields_[3]) + "' must be 0 or 1");
      r.taken = fields_[3] == "1";
      r.ilen = static_cast<uint8_t>(dec(4, "ilen", 255));
      r.insns = static_cast<uint32_t>(dec(5, "insns", UINT32_MAX));
      r.events = static_cast<uint32_t>(dec(6, "events", UINT32_MAX));
    }
    std::string why = check_record(r);
    if (!why.empty()) fail_line("", why);
  }

  std::unique_ptr<ByteSource> src_;
  std::string line_;
  uint64_t line_no_ = 0;
  std::array<std::string_view, 7> fields_;
  size_t nfields_ = 0;
};

// -------------------------------------------------------------- binary reader

class BinaryReader : public Reader {
 public:
  BinaryReader(std::unique_ptr<ByteSource> src) : src_(std::move(src)) {
    header_.format = Format::Binary;
    header_.compressed = src_->compressed();
    file_size_ = src_->file_size();
    for (char c : kBinMagic)
      if (src_->get() != static_cast<int>(static_cast<uint8_t>(c))) fail("magic", "not an HWPT binary trace (bad magic)");
    int ver = src_->get();
    if (ver < 0) fail("version", "unexpected end of file (truncated header)");
    if (ver != kBinVersion) fail("version", "unsupported binary trace version " + std::to_string(ver) + " (this tool reads 1)");
    int n = src_->get();
    if (n < 0) fail("isa", "unexpected end of file (truncated header)");
    for (int i = 0; i < n; ++i) {
      int c = src_->get();
      if (c < 0) fail("isa", "unexpected end of file (truncated header)");
      header_.isa.push_back(static_cast<char>(c));
    }
    std::string why = check_isa(header_.isa);
    if (!why.empty()) fail("isa", why);
  }

  bool next(Record& r) override {
    if (done_) return false;
    rec_start_ = src_->offset();
    int tag = src_->get();
    if (tag < 0) fail("tag", "unexpected end of file after " + std::to_string(count_) + " records: truncated (no end marker)");
    if (tag == kEndTag) {
      uint64_t n = varint("record count");
      for (char c : kEndMagic) {
        int b = src_->get();
        if (b < 0) fail("end marker", "unexpected end of file (truncated end marker)");
        if (b != static_cast<int>(static_cast<uint8_t>(c))) fail("end marker", "corrupt end marker");
      }
      if (n != count_)
        fail("record count", "end marker says " + std::to_string(n) + " records, file holds " + std::to_string(count_));
      if (src_->peek() >= 0) fail("end marker", "data after the end marker");
      done_ = true;
      return false;
    }
    r = Record{};
    unsigned kind = tag & 7;
    if (kind >= kNumKinds) fail("kind", "unknown kind code " + std::to_string(kind));
    r.kind = static_cast<Kind>(kind);
    if (r.kind == Kind::Val) {
      // Tag 0x06: value, weight. Tag 0x0e (bit 3 set): value, weight, and
      // zigzag(pc - the previous val record's pc) (docs/formats.md).
      if (static_cast<unsigned>(tag) != kind && static_cast<unsigned>(tag) != (kind | 8u))
        fail("tag", "val record with ilen bits set");
      r.value = varint("value");
      r.weight = u32("weight");
      if (tag & 8) {
        r.has_pc = true;
        r.pc = prev_val_pc_ + static_cast<uint64_t>(unzigzag(varint("pc")));
        prev_val_pc_ = r.pc;
      }
    } else {
      r.taken = (tag >> 3) & 1;
      r.ilen = static_cast<uint8_t>(tag >> 4);
      r.pc = prev_next_ + static_cast<uint64_t>(unzigzag(varint("pc")));
      r.target = r.pc + static_cast<uint64_t>(unzigzag(varint("target")));
      r.insns = u32("insns");
      r.events = u32("events");
      prev_next_ = r.next();
    }
    std::string why = check_record(r);
    if (!why.empty()) fail("", why);
    ++count_;
    return true;
  }
  uint64_t bytes_consumed() const override { return src_->raw_consumed(); }

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    std::string m = src_->path() + ": byte " + std::to_string(field == "tag" || field == "kind" ? rec_start_ : src_->offset()) +
                    (src_->compressed() ? " (uncompressed)" : "") + ": ";
    if (count_ || rec_start_) m += "record " + std::to_string(count_ + 1) + ": ";
    if (!field.empty()) m += "field '" + field + "': ";
    throw TraceError(m + why);
  }

  uint64_t varint(const char* field) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = src_->get();
      if (b < 0) fail(field, "unexpected end of file (truncated record)");
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail(field, "varint longer than 10 bytes");
  }
  uint32_t u32(const char* field) {
    uint64_t v = varint(field);
    if (v > UINT32_MAX) fail(field, "value " + std::to_string(v) + " exceeds 32 bits");
    return static_cast<uint32_t>(v);
  }

  std::unique_ptr<ByteSource> src_;
  uint64_t prev_next_ = 0, prev_val_pc_ = 0, count_ = 0, rec_start_ = 0;
  bool done_ = false;
};

void put_varint(ByteSink& s, uint64_t v) {
  while (v >= 0x80) {
    s.put(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  s.put(static_cast<uint8_t>(v));
}

}  // namespace

std::string_view kind_name(Kind k) { return kKindNames.at(static_cast<size_t>(k)); }

bool parse_kind(std::string_view s, Kind& k) {
  for (size_t i = 0; i < kKindNames.size(); ++i)
    if (kKindNames[i] == s) {
      k = static_cast<Kind>(i);
      return true;
    }
  return false;
}

bool Record::operator==(const Record& o) const {
  return kind == o.kind && pc == o.pc && target == o.target && taken == o.taken && ilen == o.ilen &&
         insns == o.insns && events == o.events && value == o.value && weight == o.weight &&
         has_pc == o.has_pc;
}

std::string check_record(const Record& r) {
  if (r.kind == Kind::Val) {
    if (r.weight == 0) return "field 'weight': must be >= 1";
    if (!r.has_pc && r.pc != 0) return "field 'pc': a val record without a pc must have pc 0";
    return {};
  }
  if (r.has_pc) return "field 'pc': only val records carry has_pc";
  if (r.ilen == 0 || r.ilen > kMaxIlen)
    return "field 'ilen': " + std::to_string(r.ilen) + " is not an instruction length (1.." +
           std::to_string(kMaxIlen) + ")";
  if (r.insns == 0) return "field 'insns': must be >= 1 (the branch itself retires)";
  if (!r.taken && r.kind != Kind::Br)
    return "field 'taken': 0 is only legal for a conditional branch (br), not " + std::string(kind_name(r.kind));
  return {};
}

std::unique_ptr<Reader> Reader::open(const std::string& path) {
  auto src = std::make_unique<ByteSource>(path);
  int c = src->peek();
  if (c == 'H') return std::make_unique<BinaryReader>(std::move(src));
  return std::make_unique<TextReader>(std::move(src));
}

// --------------------------------------------------------------------- writer

struct Writer::Impl {
  std::string path, tmp;
  FILE* f = nullptr;
  std::unique_ptr<ByteSink> sink;
  Format fmt;
  uint64_t prev_next = 0, prev_val_pc = 0;
  bool committed = false;
};

std::string check_isa(const std::string& isa) {
  if (isa.size() > 255) return "isa name is " + std::to_string(isa.size()) + " bytes (at most 255)";
  for (char c : isa) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x21 || u > 0x7e) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", u);
      return std::string("isa name holds byte ") + hex + " (printable ASCII without blanks only)";
    }
  }
  return "";
}

Writer::Writer(const std::string& path, Format fmt, bool compress, const std::string& isa)
    : impl_(std::make_unique<Impl>()) {
  if (std::string why = check_isa(isa); !why.empty()) throw TraceError(path + ": " + why);
  impl_->path = path;
  impl_->fmt = fmt;
  struct stat st {};
  if (path == "-") {
    impl_->f = stdout;
  } else if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    // A device, FIFO or the like (/dev/null): write in place, never rename
    // a temporary over it.
    impl_->f = std::fopen(path.c_str(), "wb");
    if (!impl_->f) throw TraceError(path + ": cannot open for writing: " + std::strerror(errno));
  } else {
    impl_->tmp = path + ".tmp." + std::to_string(getpid());
    impl_->f = std::fopen(impl_->tmp.c_str(), "wb");
    if (!impl_->f) throw TraceError(path + ": cannot create: " + std::strerror(errno));
  }
  impl_->sink = std::make_unique<ByteSink>(impl_->f, compress);
  if (fmt == Format::Text) {
    std::string h = "#hwprof-trace v1";
    if (!isa.empty()) h += " isa=" + isa;
    h += "\n";
    impl_->sink->write(h.data(), h.size());
  } else {
    impl_->sink->write(kBinMagic, sizeof(kBinMagic));
    impl_->sink->put(kBinVersion);
    impl_->sink->put(static_cast<uint8_t>(isa.size()));
    impl_->sink->write(isa.data(), isa.size());
  }
}

Writer::~Writer() {
  if (impl_->committed || !impl_->f) return;
  if (!impl_->tmp.empty()) {
    std::fclose(impl_->f);
    std::remove(impl_->tmp.c_str());
  } else if (impl_->f != stdout) {
    std::fclose(impl_->f);
  }
}

void Writer::write(const Record& r) {
  std::string why = check_record(r);
  if (!why.empty()) throw TraceError(impl_->path + ": record " + std::to_string(records_ + 1) + ": " + why);
  ByteSink& s = *impl_->sink;
  if (impl_->fmt == Format::Text) {
    char buf[160];
    int n;
    if (r.kind == Kind::Val && r.has_pc)
      n = std::snprintf(buf, sizeof buf, "val %llx %u %llx\n", static_cast<unsigned long long>(r.value), r.weight,
                        static_cast<unsigned long long>(r.pc));
    else if (r.kind == Kind::Val)
      n = std::snprintf(buf, sizeof buf, "val %llx %u\n", static_cast<unsigned long long>(r.value), r.weight);
    else
      n = std::snprintf(buf, sizeof buf, "%s %llx %llx %d %u %u %u\n", kind_name(r.kind).data(),
                        static_cast<unsigned long long>(r.pc), static_cast<unsigned long long>(r.target),
                        r.taken ? 1 : 0, r.ilen, r.insns, r.events);
    s.write(buf, static_cast<size_t>(n));
  } else if (r.kind == Kind::Val) {
    s.put(static_cast<uint8_t>(static_cast<unsigned>(Kind::Val) | (r.has_pc ? 8u : 0u)));
    put_varint(s, r.value);
    put_varint(s, r.weight);
    if (r.has_pc) {
      put_varint(s, zigzag(static_cast<int64_t>(r.pc - impl_->prev_val_pc)));
      impl_->prev_val_pc = r.pc;
    }
  } else {
    s.put(static_cast<uint8_t>(static_cast<unsigned>(r.kind) | (r.taken ? 8u : 0u) | (unsigned(r.ilen) << 4)));
    put_varint(s, zigzag(static_cast<int64_t>(r.pc - impl_->prev_next)));
    put_varint(s, zigzag(static_cast<int64_t>(r.target - r.pc)));
    put_varint(s, r.insns);
    put_varint(s, r.events);
    impl_->prev_next = r.next();
  }
  ++records_;
}

void Writer::commit() {
  if (impl_->fmt == Format::Binary) {
    impl_->sink->put(kEndTag);
    put_varint(*impl_->sink, records_);
    impl_->sink->write(kEndMagic, sizeof(kEndMagic));
  }
  bool ok = impl_->sink->finish();
  if (impl_->tmp.empty()) {
    if (impl_->f != stdout) ok = (std::fclose(impl_->f) == 0) && ok;
    impl_->f = nullptr;
    impl_->committed = true;
    if (!ok) throw TraceError(impl_->path + ": write error");
    return;
  }
  ok = (std::fclose(impl_->f) == 0) && ok;
  impl_->f = nullptr;
  if (!ok || std::rename(impl_->tmp.c_str(), impl_->path.c_str()) != 0) {
    std::remove(impl_->tmp.c_str());
    impl_->committed = true;
    throw TraceError(impl_->path + ": write error: " + std::strerror(errno));
  }
  impl_->committed = true;
}

void format_from_name(const std::string& path, Format& fmt, bool& compress) {
  auto ends = [&](std::string_view s) {
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  compress = ends(".zst");
  std::string base = compress ? path.substr(0, path.size() - 4) : path;
  fmt = (base.size() >= 5 && base.compare(base.size() - 5, 5, ".hwpt") == 0) ? Format::Binary : Format::Text;
}

Info scan(const std::string& path, const std::function<void(uint64_t, uint64_t)>& progress) {
  auto rd = Reader::open(path);
  Info info;
  info.header = rd->header();
  Record r;
  while (rd->next(r)) {
    ++info.records;
    ++info.kinds[static_cast<size_t>(r.kind)];
    if (r.has_pc) ++info.val_pcs;
    if (r.is_branch()) {
      info.instructions += r.insns;
      info.events += r.events;
    }
    if (progress && (info.records & 0xfffff) == 0) progress(rd->bytes_consumed(), rd->file_size());
  }
  info.bytes = rd->bytes_consumed();
  return info;
}

void for_each(const std::string& path, const std::function<void(const Record&)>& fn) {
  auto rd = Reader::open(path);
  Record r;
  while (rd->next(r)) fn(r);
}

}  // namespace hwprof::trace
