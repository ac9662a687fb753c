#include "symbols.h"

#include <fmt/core.h>

#include <cstdio>

namespace hwprof::cli {

void add_symbol_options(CLI::App* c, SymOpts& o) {
  c->add_flag("--no-symbols", o.no_symbols, "show addresses without symbols or source lines");
  c->add_option("--map", o.map, "load map naming the trace's ELF files (default TRACE.map, as hwprof record "
                                "writes it)");
}

void add_format_option(CLI::App* c, std::string& format) {
  c->add_option("--format", format, "output: text, json (= --json) or csv (the report's table, RFC 4180)")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
}

AddrNames::AddrNames(const std::string& trace, const SymOpts& o) : no_symbols_(o.no_symbols) {
  if (trace != "-") addrs_.add_trace(trace);
  if (!no_symbols_) syms_ = sym::Symbolizer::for_trace(trace, o.map);
}

std::string AddrNames::Name::full_hex() const { return sym::hex(full) + (candidates > 1 ? "?" : ""); }

const AddrNames::Name& AddrNames::of(uint64_t folded) {
  auto it = cache_.find(folded);
  if (it != cache_.end()) return it->second;
  Name n;
  const auto h = addrs_.full(folded);
  n.full = h.full;
  n.candidates = h.candidates;
  if (h.candidates) n.loc = syms_.lookup(h.full);
  else n.loc.addr = h.full;
  return cache_.emplace(folded, n).first->second;
}

sym::Location AddrNames::lookup_full(uint64_t full) { return syms_.lookup(full); }

AddrNames::Name AddrNames::range(uint64_t lo, uint64_t hi) {
  Name n;
  const auto h = addrs_.range(lo, hi);
  n.full = h.full;
  n.candidates = h.candidates;
  if (h.candidates) {
    n.loc = syms_.lookup(h.first);
    const sym::Location l = syms_.lookup(h.last);
    if (l.object != n.loc.object || l.function != n.loc.function)
      n.last_fn = l.function.empty() ? l.sym() : l.object + "!" + l.function;
  } else {
    n.loc.addr = h.full;
  }
  return n;
}

void AddrNames::add_json(nlohmann::json& e, const Name& n, const std::string& prefix) const {
  e[prefix + "_full"] = sym::hex(n.full);
  if (n.candidates > 1) e[prefix + "_ambiguous"] = n.candidates;
  if (no_symbols_) return;
  e["sym"] = n.loc.sym();
  if (!n.loc.file.empty()) {
    e["file"] = n.loc.file;
    e["line"] = n.loc.line;
  }
}

nlohmann::json AddrNames::summary() const {
  nlohmann::json j;
  j["enabled"] = !no_symbols_ && syms_.enabled();
  j["map"] = syms_.map_path().empty() ? nlohmann::json(nullptr) : nlohmann::json(syms_.map_path());
  j["ambiguous_addresses"] = addrs_.ambiguous();
  j["notes"] = notes();
  return j;
}

std::vector<std::string> AddrNames::notes() const {
  std::vector<std::string> v = syms_.notes();
  if (const size_t a = addrs_.ambiguous())
    v.push_back(fmt::format("addresses: {} {}-bit values stand for more than one full address of the trace "
                            "(shown with '?', the lowest one)",
                            a, sym::FullAddrs::kFoldBits));
  return v;
}

void AddrNames::print_notes(bool quiet) const {
  if (quiet) return;
  for (const auto& n : notes()) std::fprintf(stderr, "hwprof: note: %s\n", n.c_str());
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

void csv_row(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  line += "\r\n";
  std::fputs(line.c_str(), stdout);
}

std::string folded_frame(const std::string& s_in) {
  // A demangled C++ name loses its parameter list (as flame graphs show
  // functions): cut at the '(' matching the name's last ')' ("f(int) const").
  std::string s = s_in;
  const size_t close = s.rfind(')');
  if (close != std::string::npos && s.find('!') != std::string::npos) {
    int depth = 0;
    for (size_t i = close + 1; i-- > 0;) {
      if (s[i] == ')') ++depth;
      else if (s[i] == '(' && --depth == 0) {
        if (i > 0 && s.compare(0, i, s, 0, i) == 0 && s.substr(0, i).find('!') != std::string::npos)
          s = s.substr(0, i) + s.substr(s.find_first_of("+#", close) == std::string::npos ? s.size()
                                                                                      : s.find_first_of("+#", close));
        break;
      }
    }
  }
  std::string o = s;
  for (char& c : o)
    if (c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  return o;
}

}  // namespace hwprof::cli

#include <fstream>
#include <unordered_map>

#include "trace.h"

namespace hwprof::cli {

namespace {

// A frame's name: the function (no offset) when known, else sym().
std::string frame_name(const sym::Location& l) {
  if (!l.function.empty()) return folded_frame(l.object + "!" + l.function);
  return folded_frame(l.sym());
}

}  // namespace

size_t write_call_folded(const std::string& trace, AddrNames& names, const std::string& path) {
  // Call-stack trie: node = (parent, frame); weights per node.
  struct Node {
    uint32_t parent;
    uint32_t frame;
  };
  std::vector<Node> nodes;
  std::vector<uint64_t> weight;
  std::unordered_map<uint64_t, uint32_t> child;  // (parent << 32 | frame) -> node
  std::vector<std::string> frames;
  std::unordered_map<std::string, uint32_t> frame_id;
  std::unordered_map<uint64_t, uint32_t> addr_frame;  // full address -> frame
  auto frame_of = [&](uint64_t full) {
    auto it = addr_frame.find(full);
    if (it != addr_frame.end()) return it->second;
    sym::Location l;
    l.addr = full;
    if (names.symbols()) l = names.lookup_full(full);
    const std::string n = frame_name(l);
    auto [f, fresh] = frame_id.emplace(n, uint32_t(frames.size()));
    if (fresh) frames.push_back(n);
    addr_frame.emplace(full, f->second);
    return f->second;
  };
  auto node_of = [&](uint32_t parent, uint32_t frame) {
    const uint64_t k = uint64_t{parent} << 32 | frame;
    auto it = child.find(k);
    if (it != child.end()) return it->second;
    const uint32_t id = uint32_t(nodes.size());
    nodes.push_back({parent, frame});
    weight.push_back(0);
    child.emplace(k, id);
    return id;
  };
  constexpr uint32_t kRoot = ~uint32_t{0};
  constexpr size_t kMaxDepth = 512;
  std::vector<uint32_t> stack;  // node ids
  size_t hidden = 0;            // calls above kMaxDepth not on the stack
  auto rd = trace::Reader::open(trace);
  trace::Record r;
  while (rd->next(r)) {
    if (!r.is_branch()) continue;
    if (stack.empty()) stack.push_back(node_of(kRoot, frame_of(r.pc)));
    weight[stack.back()] += r.insns;
    if (r.kind == trace::Kind::Call || r.kind == trace::Kind::Icall) {
      if (stack.size() >= kMaxDepth) ++hidden;
      else stack.push_back(node_of(stack.back(), frame_of(r.target)));
    } else if (r.kind == trace::Kind::Ret) {
      if (hidden) --hidden;
      else if (stack.size() > 1) stack.pop_back();
      else stack[0] = node_of(kRoot, frame_of(r.target));  // returned above the first frame
    }
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot write");
  size_t lines = 0;
  std::vector<uint32_t> chain;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (!weight[i]) continue;
    chain.clear();
    for (uint32_t n = i; n != kRoot; n = nodes[n].parent) chain.push_back(nodes[n].frame);
    std::string line;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) line += (line.empty() ? "" : ";") + frames[*it];
    out << line << ' ' << weight[i] << '\n';
    ++lines;
  }
  out.close();
  if (!out) throw std::runtime_error(path + ": write failed");
  return lines;
}

}  // namespace hwprof::cli
