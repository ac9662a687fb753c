// hwprof report: one self-contained HTML page (no network, inline SVG and a
// few lines of inline JavaScript for zooming) with the run summary, the
// symbolized hot paths beside the exact profile, the RAP hot ranges as a
// zoomable icicle plot and the phase timeline. Every section comes from the
// JSON of the command that prints it (hwprof trace info, profile --unit
// path|rap|phase), run as a child process of this executable, so the page
// always says what those commands say.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <unistd.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "symbols.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

struct ReportOpts {
  std::string trace;
  std::string out;
  std::string engine = "model";
  size_t top = 20;
  uint32_t interval = 0;  // 0: instructions / 40, rounded
  std::string detector = "bbv";
  std::string cpi;
  SymOpts sym;
};

std::string shell_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) {
    if (c == '\'') o += "'\\''";
    else o += c;
  }
  return o + "'";
}

std::string self_exe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("report: cannot find the hwprof executable (/proc/self/exe)");
  return std::string(buf, size_t(n));
}

// Runs `hwprof -q ARGS` and parses its JSON output.
nlohmann::json run_json(const std::vector<std::string>& args) {
  std::string cmd = shell_quote(self_exe()) + " -q";
  for (const auto& a : args) cmd += " " + shell_quote(a);
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("report: cannot run " + cmd);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int rc = ::pclose(p);
  if (rc != 0) throw std::runtime_error("report: `hwprof " + args[0] + " ...` failed (see above)");
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    throw std::runtime_error("report: `hwprof " + args[0] + " ...` gave no JSON: " + e.what());
  }
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string str(const nlohmann::json& j, const char* k) {
  if (!j.contains(k) || j[k].is_null()) return "";
  return j[k].is_string() ? j[k].get<std::string>() : j[k].dump();
}

std::string pct(double a, double b) { return b > 0 ? fmt::format("{:.2f}%", 100.0 * a / b) : "-"; }

std::string phase_color(uint64_t id) { return fmt::format("hsl({},60%,55%)", (id * 137) % 360); }

// ---------------------------------------------------------------- sections

std::string summary_section(const ReportOpts& o, const nlohmann::json& info, const nlohmann::json& path,
                            const nlohmann::json& rap, const nlohmann::json& ph) {
  std::string h = "<section id=\"summary\"><h2>Run summary</h2><table class=\"kv\">\n";
  auto row = [&](const std::string& k, const std::string& v) {
    h += "<tr><th>" + esc(k) + "</th><td>" + esc(v) + "</td></tr>\n";
  };
  row("trace", o.trace);
  row("format", fmt::format("{}{}, ISA {}", str(info, "format"), info.value("compressed", false) ? ", zstd" : "",
                            str(info, "isa")));
  row("records", fmt::format("{} ({} instructions, {} events)", str(info, "records"), str(info, "instructions"),
                             str(info, "events")));
  std::string kinds;
  if (info.contains("kinds"))
    for (auto& [k, v] : info["kinds"].items()) kinds += (kinds.empty() ? "" : ", ") + k + " " + v.dump();
  row("kinds", kinds);
  row("engine", o.engine);
  const auto& hs = path["hpt"]["stats"];
  row("path profiler",
      fmt::format("HPT {} sets x {} ways, policy {}; {} descriptors, {} hits ({}), {} fills, {} replacements, {} "
                  "rejects; complete overlap with the exact profile {:.2f}% (oracle {:.2f}%)",
                  str(path["hpt"]["config"], "sets"), str(path["hpt"]["config"], "ways"),
                  str(path["hpt"]["config"], "policy"), str(hs, "descs"), str(hs, "hits"),
                  pct(hs.value("hits", 0.0), hs.value("descs", 0.0)), str(hs, "fills"), str(hs, "replacements"),
                  str(hs, "rejects"), path["overlap"].value("complete_percent", 0.0),
                  path["overlap"].value("oracle_percent", 0.0)));
  const auto& fs = path["stats"];
  row("front end", fmt::format("{} branch records, {} descriptors ({} incomplete), {} splits, {} stack overflows{}",
                               str(fs, "records"), str(fs, "emitted"), str(fs, "incomplete"), str(fs, "splits"),
                               str(fs, "overflows"),
                               fs.contains("cycles") ? fmt::format(", {} clock cycles ({:.4f} records/clock)",
                                                                   str(fs, "cycles"),
                                                                   fs["records"].get<double>() /
                                                                       std::max(1.0, fs["cycles"].get<double>()))
                                                     : std::string()));
  const auto& rs = rap["stats"];
  row("RAP engine", fmt::format("n = {}, {} nodes, {} splits, {} merges; {:.4f} events/clock over {} cycles "
                                "(stalls: {} replay, {} capacity-pass, {} scheduled-pass, {} TCAM-write)",
                                str(rap, "n"), str(rs, "nodes"), str(rs, "splits"), str(rs, "merges"),
                                rs.value("events_per_clock", 0.0), str(rs, "cycles"), str(rs, "stall_flush"),
                                str(rs, "stall_cap"), str(rs, "stall_sched"), str(rs, "stall_tcam")));
  const auto& sm = ph["summary"];
  row("phases", fmt::format("{} detector, interval {} instructions: {} intervals, {} phases, {} runs, prediction "
                            "accuracy {:.1f}%",
                            str(ph, "detector"), str(ph, "interval"), str(sm, "intervals"), str(sm, "phases"),
                            str(sm, "runs"), 100.0 * sm.value("prediction_accuracy", 0.0)));
  const auto& sy = path["symbols"];
  row("symbols", sy.value("enabled", false) ? "load map " + str(sy, "map") : "off (no load map or --no-symbols)");
  h += "</table>\n";
  std::vector<std::string> notes;
  for (const auto* j : {&path, &rap, &ph})
    if (j->contains("symbols"))
      for (const auto& n : (*j)["symbols"]["notes"])
        if (std::find(notes.begin(), notes.end(), n.get<std::string>()) == notes.end()) notes.push_back(n);
  if (!notes.empty()) {
    h += "<ul class=\"notes\">";
    for (const auto& n : notes) h += "<li>" + esc(n) + "</li>";
    h += "</ul>\n";
  }
  return h + "</section>\n";
}

std::string paths_section(const nlohmann::json& path) {
  std::string h = "<section id=\"hot-paths\"><h2>Hot paths</h2>\n<p>The path profiler's hot path table "
                  "(accumulator and its share of the table) beside the exact profile of the same run.</p>\n";
  h += "<table class=\"grid\"><tr><th>rank</th><th>start</th><th>len</th><th>dirs</th><th>HPT</th><th>share</th>"
       "<th>exact share</th><th class=\"bar\"></th><th>symbol</th><th>source</th></tr>\n";
  const double hpt_total = path["hpt"].value("total", 0.0);
  const double ex_total = path["overlap"].value("exact_total", 0.0);
  size_t rank = 0;
  // Exact weights are not in the JSON per entry: the share of the exact
  // profile is the entry's count share for lfu/erode lower bounds; show the
  // HPT share and a bar of it.
  for (const auto& p : path["paths"]) {
    ++rank;
    const double acc = p.value("count", 0.0);
    const std::string src = p.contains("file") ? str(p, "file") + ":" + str(p, "line") : "";
    h += fmt::format(
        "<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td class=\"bar\"><div style=\"width:{:.1f}px\"></div></td><td class=\"mono\">{}</td>"
        "<td class=\"mono\">{}</td></tr>\n",
        rank, esc(str(p, "start_full")), str(p, "length"), esc(str(p, "dirs")), str(p, "count"), pct(acc, hpt_total),
        p.contains("exact") ? pct(p["exact"].get<double>(), ex_total) : "-", 150.0 * acc / std::max(hpt_total, 1.0),
        esc(str(p, "sym")), esc(src));
  }
  return h + "</table></section>\n";
}

// RAP tree as an icicle plot: each node's children share its width in
// proportion to their subtree weights; rows are tree levels. Click a node to
// zoom into it, click the root row to zoom out.
std::string rap_section(const nlohmann::json& rap) {
  struct N {
    uint64_t prefix, last;
    unsigned depth;
    uint64_t count, subtree = 0;
    int parent = -1;
    std::vector<int> kids;
    double x0 = 0, x1 = 0;
    unsigned level = 0;
    bool hot = false;
    std::string label;
  };
  const unsigned bits = rap["params"].value("range_bits", 32u);
  std::vector<N> ns;
  std::vector<int> stack;
  for (const auto& j : rap["nodes"]) {
    N n;
    n.prefix = std::stoull(j["prefix"].get<std::string>(), nullptr, 16);
    n.depth = j["depth"];
    n.count = j["count"];
    const unsigned w = bits > 2 * n.depth ? bits - 2 * n.depth : 0;
    n.last = n.prefix + ((w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w)) - 1);
    while (!stack.empty() && !(ns[size_t(stack.back())].prefix <= n.prefix && n.last <= ns[size_t(stack.back())].last))
      stack.pop_back();
    n.parent = stack.empty() ? -1 : stack.back();
    n.level = stack.empty() ? 0 : ns[size_t(stack.back())].level + 1;
    ns.push_back(n);
    const int id = int(ns.size() - 1);
    if (n.parent >= 0) ns[size_t(n.parent)].kids.push_back(id);
    stack.push_back(id);
  }
  for (const auto& h : rap["hot"]) {
    const uint64_t pre = std::stoull(h["prefix"].get<std::string>(), nullptr, 16);
    for (auto& n : ns)
      if (n.prefix == pre && n.depth == h["depth"].get<unsigned>()) {
        n.hot = true;
        n.label = str(h, "prefix_full") + "-" + str(h, "last_full") + " " + str(h, "sym") +
                  (h.contains("sym_last") ? " .. " + str(h, "sym_last") : "");
      }
  }
  for (size_t i = ns.size(); i-- > 0;) {
    ns[i].subtree += ns[i].count;
    if (ns[i].parent >= 0) ns[size_t(ns[i].parent)].subtree += ns[i].subtree;
  }
  unsigned levels = 0;
  for (size_t i = 0; i < ns.size(); ++i) {
    N& n = ns[i];
    levels = std::max(levels, n.level + 1);
    if (n.parent < 0) {
      n.x0 = 0;
      n.x1 = 1;
    }
    double x = n.x0 + (n.x1 - n.x0) * (n.subtree ? double(n.count) / double(n.subtree) : 0.0) / 2.0;
    // Own count split around the children: half before, half after.
    for (int k : n.kids) {
      N& c = ns[size_t(k)];
      const double w = n.subtree ? (n.x1 - n.x0) * double(c.subtree) / double(n.subtree) : 0.0;
      c.x0 = x;
      c.x1 = x + w;
      x += w;
    }
  }
  const double W = 1000, RH = 18;
  const double n_total = std::max(1.0, rap.value("n", 0.0));
  std::string h = "<section id=\"rap\"><h2>RAP hot ranges</h2>\n<p>Range-adaptive profile of the code (";
  h += fmt::format("n = {}): every tree node as a box, width = its share of n, rows = tree levels; hot ranges "
                   "(carry above the hot fraction) in orange with their full addresses and symbols. Click a box to "
                   "zoom in, the top row to zoom out.</p>\n",
                   rap.value("n", 0));
  h += fmt::format("<svg id=\"rap-icicle\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                   "font-size=\"11\" font-family=\"monospace\">\n",
                   W, RH * std::max(levels, 1u) + 4);
  for (const auto& n : ns) {
    if (n.x1 - n.x0 <= 0) continue;
    const std::string tip = fmt::format("{:x}-{:x} d{}: own {} ({}), subtree {} ({}){}", n.prefix, n.last, n.depth,
                                        n.count, pct(double(n.count), n_total), n.subtree,
                                        pct(double(n.subtree), n_total), n.label.empty() ? "" : "; " + n.label);
    const std::string label = n.hot ? n.label : fmt::format("{:x}", n.prefix);
    const size_t fit = size_t(std::max(0.0, ((n.x1 - n.x0) * W - 4) / 6.7));  // 11px monospace: ~6.7 px a char
    h += fmt::format("<g class=\"node\" data-x0=\"{:.6f}\" data-x1=\"{:.6f}\" data-label=\"{}\"><rect x=\"{:.2f}\" "
                     "y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\" stroke=\"white\"><title>{}</title>"
                     "</rect><text x=\"{:.2f}\" y=\"{:.1f}\">{}</text></g>\n",
                     n.x0, n.x1, esc(label), n.x0 * W, n.level * RH, (n.x1 - n.x0) * W, RH - 1,
                     n.hot ? "#f28e2b" : "#9ecae1", esc(tip), n.x0 * W + 2, n.level * RH + 13,
                     esc(label.substr(0, fit)));
  }
  h += "</svg>\n<script>\n(function(){var s=document.getElementById('rap-icicle');var W=" + fmt::format("{}", W) +
       ";function zoom(a,b){s.querySelectorAll('g.node').forEach(function(g){var x0=+g.dataset.x0,x1=+g.dataset.x1;"
       "var r=g.querySelector('rect'),t=g.querySelector('text');var l=(x0-a)/(b-a)*W,w=(x1-x0)/(b-a)*W;"
       "var vis=x1>a&&x0<b;g.style.display=vis?'':'none';r.setAttribute('x',l);r.setAttribute('width',w);"
       "t.setAttribute('x',l+2);t.textContent=g.dataset.label.substring(0,Math.max(0,Math.floor((w-4)/6.7)));});}"
       "s.querySelectorAll('g.node').forEach(function(g){g.addEventListener('click',function(){"
       "var a=+g.dataset.x0,b=+g.dataset.x1;if(a==0&&b==1){zoom(0,1);}else{zoom(a,b);}});});})();\n</script>\n";
  // The hot ranges as a table too.
  h += "<table class=\"grid\"><tr><th>range (full)</th><th>depth</th><th>carry</th><th>total</th><th>symbols</th>"
       "<th>source</th></tr>\n";
  for (const auto& r : rap["hot"]) {
    h += fmt::format("<tr><td class=\"mono\">{}{}-{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}{}"
                     "</td><td class=\"mono\">{}</td></tr>\n",
                     std::string(2 * r.value("level", 0u), '.'), esc(str(r, "prefix_full")), esc(str(r, "last_full")),
                     str(r, "depth"), pct(r.value("carry", 0.0), n_total), pct(r.value("subtree", 0.0), n_total),
                     esc(str(r, "sym")), r.contains("sym_last") ? esc(" .. " + str(r, "sym_last")) : "",
                     r.contains("file") ? esc(str(r, "file") + ":" + str(r, "line")) : "");
  }
  return h + "</table></section>\n";
}

std::string phase_section(const nlohmann::json& ph, const std::vector<double>& cpi) {
  const auto& iv = ph["intervals"];
  const size_t n = iv.size();
  const double W = 1000, H = 40, CH = 80;
  std::string h = "<section id=\"phases\"><h2>Phase timeline</h2>\n";
  h += fmt::format("<p>{} detector, {} instructions per interval: one box per interval coloured by phase id "
                   "(a tick marks a phase change, a red dot a wrong prediction){}. Hover for the interval's hottest "
                   "function.</p>\n",
                   esc(str(ph, "detector")), str(ph, "interval"),
                   cpi.empty() ? "; CPI: run with --cpi FILE (hwprof critpath --cpi-interval N --cpi-out FILE)"
                               : "; the line is the CPI per interval");
  const double bw = n ? W / double(n) : W;
  const double total_h = H + 14 + (cpi.empty() ? 0 : CH + 10);
  h += fmt::format("<svg id=\"phase-timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n",
                   W, total_h);
  for (size_t i = 0; i < n; ++i) {
    const auto& x = iv[i];
    const uint64_t id = x.value("phase", uint64_t{0});
    const std::string tip = fmt::format("interval {}: phase {}{}{}{}", i, id, x.value("changed", false) ? " (new run)" : "",
                                        x.value("scored", false) ? (x.value("correct", false) ? ", predicted right"
                                                                                              : ", predicted wrong")
                                                                 : "",
                                        x.contains("hot_sym") ? "; hottest: " + str(x, "hot_sym") : "");
    h += fmt::format("<rect x=\"{:.2f}\" y=\"0\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
                     double(i) * bw, std::max(bw, 0.5), H, phase_color(id), esc(tip));
    if (x.value("changed", false))
      h += fmt::format("<line x1=\"{0:.2f}\" x2=\"{0:.2f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"black\"/>\n",
                       double(i) * bw, H, H + 6);
    if (x.value("scored", false) && !x.value("correct", false))
      h += fmt::format("<circle cx=\"{:.2f}\" cy=\"{}\" r=\"2\" fill=\"red\"/>\n", (double(i) + 0.5) * bw, H + 10);
  }
  if (!cpi.empty()) {
    const double mx = *std::max_element(cpi.begin(), cpi.end());
    std::string pts;
    for (size_t i = 0; i < std::min(n, cpi.size()); ++i)
      pts += fmt::format("{:.2f},{:.2f} ", (double(i) + 0.5) * bw, H + 14 + CH - CH * cpi[i] / std::max(mx, 1e-9));
    h += "<polyline fill=\"none\" stroke=\"#333\" points=\"" + pts + "\"/>\n";
    h += fmt::format("<text x=\"2\" y=\"{}\" font-size=\"11\">CPI (max {:.2f})</text>\n", H + 26, mx);
  }
  h += "</svg>\n";
  // Phases table: id, intervals, hottest functions.
  std::map<uint64_t, std::pair<size_t, std::map<std::string, size_t>>> by;
  for (const auto& x : iv) {
    auto& e = by[x.value("phase", uint64_t{0})];
    ++e.first;
    if (x.contains("hot_sym")) ++e.second[str(x, "hot_sym")];
  }
  h += "<table class=\"grid\"><tr><th>phase</th><th>intervals</th><th>hottest functions (intervals)</th></tr>\n";
  for (const auto& [id, e] : by) {
    std::vector<std::pair<size_t, std::string>> f;
    for (const auto& [s, c] : e.second) f.push_back({c, s});
    std::sort(f.rbegin(), f.rend());
    std::string fs;
    for (size_t i = 0; i < std::min<size_t>(3, f.size()); ++i)
      fs += (i ? ", " : "") + esc(f[i].second) + fmt::format(" ({})", f[i].first);
    h += fmt::format("<tr><td><span class=\"sw\" style=\"background:{}\"></span>{}</td><td>{}</td><td "
                     "class=\"mono\">{}</td></tr>\n",
                     phase_color(id), id, e.first, fs);
  }
  return h + "</table></section>\n";
}

void run_report(const ReportOpts& o, const Global& g) {
  {
    trace::Info info = trace::scan(o.trace);  // validates; located error on bad input
    (void)info;
  }
  std::vector<std::string> sym_args;
  if (o.sym.no_symbols) sym_args.push_back("--no-symbols");
  if (!o.sym.map.empty()) sym_args.insert(sym_args.end(), {"--map", o.sym.map});
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), sym_args.begin(), sym_args.end());
    a.push_back(o.trace);
    return a;
  };
  auto say = [&](const char* what) {
    if (!g.quiet) std::fprintf(stderr, "hwprof: report: %s\n", what);
  };
  say("trace info");
  const nlohmann::json info = run_json({"trace", "info", "--json", o.trace});
  say("path profiler");
  const nlohmann::json path =
      run_json(with({"profile", "--unit", "path", "--engine", o.engine, "--json", "--top", std::to_string(o.top)}));
  say("RAP engine");
  const nlohmann::json rap = run_json(with({"profile", "--unit", "rap", "--engine", o.engine, "--json"}));
  uint32_t interval = o.interval;
  if (!interval) {
    const uint64_t insns = info.value("instructions", uint64_t{0});
    interval = uint32_t(std::max<uint64_t>(1000, (insns / 40 + 999) / 1000 * 1000));
  }
  say("phase detector");
  std::vector<std::string> pa = {"profile", "--unit", "phase", "--detector", o.detector, "--interval",
                                 std::to_string(interval), "--engine", o.engine, "--json"};
  std::vector<double> cpi;
  if (!o.cpi.empty()) {
    pa.insert(pa.end(), {"--cpi", o.cpi});
    std::ifstream f(o.cpi);
    nlohmann::json cj;
    f >> cj;
    cpi = cj["cpi"].get<std::vector<double>>();
  }
  const nlohmann::json ph = run_json(with(pa));

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>hwprof report: " +
                     esc(o.trace) + "</title>\n<style>\n"
                     "body{font-family:sans-serif;margin:1.5em;max-width:1100px}h1{font-size:1.4em}"
                     "h2{font-size:1.15em;border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 0}"
                     "td,th{padding:2px 8px;text-align:left;font-size:.9em}table.grid tr:nth-child(even){background:#f4f4f4}"
                     "table.kv th{color:#555;font-weight:normal}.mono{font-family:monospace}"
                     "td.bar div{background:#4e79a7;height:10px}.notes{color:#8a5a00}"
                     ".sw{display:inline-block;width:10px;height:10px;margin-right:4px}g.node{cursor:pointer}\n"
                     "</style></head><body>\n<h1>hwprof report</h1>\n";
  html += summary_section(o, info, path, rap, ph);
  html += paths_section(path);
  html += rap_section(rap);
  html += phase_section(ph, cpi);
  html += "<footer><p>Written by <code>hwprof report</code>; sections from <code>hwprof trace info</code>, "
          "<code>hwprof profile --unit path|rap|phase --json</code> (docs/cli.md).</p></footer>\n</body></html>\n";
  const std::string tmp = o.out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw std::runtime_error("-o " + o.out + ": cannot write");
    f << html;
    f.close();
    if (!f) throw std::runtime_error("-o " + o.out + ": write failed");
  }
  if (std::rename(tmp.c_str(), o.out.c_str()) != 0) throw std::runtime_error("-o " + o.out + ": cannot rename");
  if (!g.quiet) std::fprintf(stderr, "hwprof: report: wrote %s (%zu bytes)\n", o.out.c_str(), html.size());
}

}  // namespace

void add_report_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<ReportOpts>();
  auto* c = app.add_subcommand("report", "one self-contained HTML page: run summary, symbolized hot paths, RAP hot "
                                         "ranges (zoomable icicle), phase timeline");
  c->add_option("-o,--output", o->out, "HTML file to write")->required();
  c->add_option("--engine", o->engine, "golden model or Verilated RTL")
      ->check(CLI::IsMember({"model", "rtl"}))
      ->capture_default_str();
  c->add_option("--top", o->top, "hot paths listed")->capture_default_str();
  c->add_option("--interval", o->interval, "phase interval in instructions (default: the trace's instructions / 40)");
  c->add_option("--detector", o->detector, "phase unit: dcr, path or bbv")
      ->check(CLI::IsMember({"dcr", "path", "bbv"}))
      ->capture_default_str();
  c->add_option("--cpi", o->cpi, "per-interval CPI (hwprof critpath --cpi-interval N --cpi-out FILE, same N as "
                                 "--interval) drawn under the phase timeline");
  add_symbol_options(c, o->sym);
  c->add_option("TRACE", o->trace, "trace file")->required();
  c->callback([o, &g] { run_report(*o, g); });
}

}  // namespace hwprof::cli
