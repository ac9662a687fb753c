// hwprof trace validate | info | convert | cat | import-champsim
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "champsim.h"
#include "commands.h"
#include "progress.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

using trace::Info;

Info scan_with_progress(const std::string& path, const Global& g) {
  Progress p("validate " + path, g.quiet);
  return trace::scan(path, [&](uint64_t done, uint64_t total) { p.update(done, total, "bytes"); });
}

nlohmann::json info_json(const std::string& path, const Info& info) {
  nlohmann::json kinds = nlohmann::json::object();
  for (int k = 0; k < trace::kNumKinds; ++k)
    kinds[std::string(trace::kind_name(static_cast<trace::Kind>(k)))] = info.kinds[k];
  return {{"file", path},
          {"format", info.header.format == trace::Format::Binary ? "binary" : "text"},
          {"compressed", info.header.compressed},
          {"isa", info.header.isa},
          {"records", info.records},
          {"instructions", info.instructions},
          {"events", info.events},
          {"kinds", kinds},
          {"stats", {{"records", info.records}, {"bytes", info.bytes}}}};
}

}  // namespace

void add_trace_commands(CLI::App& app, Global& g) {
  auto* tr = app.add_subcommand("trace", "inspect, validate and convert trace files (docs/formats.md)");
  tr->require_subcommand(1);

  {
    auto* c = tr->add_subcommand("validate", "check every record of each trace; exit 1 if any is invalid");
    auto files = std::make_shared<std::vector<std::string>>();
    c->add_option("FILE", *files, "trace files (text v1, binary, optionally .zst)")->required();
    c->callback([files, &g] {
      int bad = 0;
      for (const auto& f : *files) {
        try {
          Info info = scan_with_progress(f, g);
          fmt::print("{}: ok: {} records, {} instructions\n", f, info.records, info.instructions);
        } catch (const trace::TraceError& e) {
          fmt::print(stderr, "{}: invalid: {}\n", f, e.what());
          ++bad;
        }
      }
      if (bad) throw Exit{1};
    });
  }
  {
    auto* c = tr->add_subcommand("info", "record and instruction counts, counts per kind");
    auto file = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    c->add_option("FILE", *file, "trace file")->required();
    c->add_flag("--json", *json, "machine-readable output");
    c->callback([file, json, &g] {
      Info info = scan_with_progress(*file, g);
      if (*json) {
        fmt::print("{}\n", info_json(*file, info).dump(2));
        return;
      }
      fmt::print("file          {}\n", *file);
      fmt::print("format        {}{}{}\n", info.header.format == trace::Format::Binary ? "binary HWPT v1" : "text v1",
                 info.header.compressed ? ", zstd" : "", info.header.isa.empty() ? "" : ", isa " + info.header.isa);
      fmt::print("records       {}\n", info.records);
      fmt::print("instructions  {}\n", info.instructions);
      fmt::print("events        {}\n", info.events);
      if (info.records) {
        const uint64_t br = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
        if (br) fmt::print("insns/branch  {:.2f}\n", double(info.instructions) / double(br));
      }
      fmt::print("kinds\n");
      for (int k = 0; k < trace::kNumKinds; ++k)
        fmt::print("  {:<6} {:>12}  {:5.1f}%\n", trace::kind_name(static_cast<trace::Kind>(k)), info.kinds[k],
                   info.records ? 100.0 * double(info.kinds[k]) / double(info.records) : 0.0);
      if (info.val_pcs) fmt::print("  val with pc {:>7}  (code x data pairs, docs/rap2d.md)\n", info.val_pcs);
    });
  }
  {
    auto* c = tr->add_subcommand("convert", "convert between formats; the output format follows the name "
                                            "(*.hwpt binary, else text; *.zst compressed)");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto fmt_opt = std::make_shared<std::string>();
    c->add_option("IN", *in, "input trace")->required();
    c->add_option("OUT", *out, "output trace")->required();
    c->add_option("--format", *fmt_opt, "force the output format")->check(CLI::IsMember({"text", "binary"}));
    c->callback([in, out, fmt_opt, &g] {
      Info info = scan_with_progress(*in, g);  // nothing is written from an invalid trace
      trace::Format f;
      bool z;
      trace::format_from_name(*out, f, z);
      if (*fmt_opt == "text") f = trace::Format::Text;
      if (*fmt_opt == "binary") f = trace::Format::Binary;
      trace::Writer w(*out, f, z, info.header.isa);
      Progress p("convert", g.quiet);
      trace::for_each(*in, [&](const trace::Record& r) {
        w.write(r);
        p.update(w.records(), info.records, "records");
      });
      w.commit();
      p.finish();
      if (*out != "-") fmt::print(stderr, "{}: {} records written\n", *out, w.records());
    });
  }
  {
    auto* c = tr->add_subcommand("cat", "print a trace as text v1 on stdout (validated first)");
    auto in = std::make_shared<std::string>();
    c->add_option("FILE", *in, "trace file")->required();
    c->callback([in, &g] {
      Info info = scan_with_progress(*in, g);
      trace::Writer w("-", trace::Format::Text, false, info.header.isa);
      trace::for_each(*in, [&](const trace::Record& r) { w.write(r); });
      w.commit();
    });
  }
  {
    auto* c = tr->add_subcommand("import-champsim", "convert a ChampSim instruction trace (.xz or raw) "
                                                    "(docs/champsim.md)");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    c->add_option("IN", *in, "ChampSim trace (.xz or uncompressed)")->required();
    c->add_option("OUT", *out, "output trace (*.hwpt[.zst] binary, else text)")->required();
    c->callback([in, out, &g] {
      Progress p("import " + *in, g.quiet);
      trace::ImportStats st =
          trace::import_champsim(*in, *out, "x86_64", [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
      p.finish();
      fmt::print(stderr, "{}: {} instructions -> {} branch records ({} ilen from fallbacks, {} targets from fallback)\n",
                 *out, st.instructions, st.records, st.ilen_per_kind + st.ilen_global + st.ilen_default,
                 st.target_fallback);
    });
  }
}

}  // namespace hwprof::cli
