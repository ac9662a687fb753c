// Cycle model of rtl/path_profiler/hwprof_path_profiler.sv, the whole path
// profiler of docs/path_profiler.md: the path-stack front end (branch queue
// -> classifier -> path stack) feeding the Hot Path Table, behind one
// register port. Sub-models compose exactly as the RTL instantiates them:
// the front end's desc_ready is the HPT's in_ready (registered in the HPT),
// and the HPT takes the front end's descriptor of this cycle.
#pragma once

#include <cstdint>

#include "hpt.h"
#include "path_frontend.h"

namespace hwprof::model {

/// Register addresses of path_profiler's csr port: the front end's map at
/// 0..15 (PathCsr), the HPT's at 16..31 (HptCsr + 16).
inline constexpr unsigned kHptCsrBase = 16;
inline constexpr unsigned hpt_csr(HptCsr a) { return kHptCsrBase + unsigned(a); }

class PathProfiler {
 public:
  /// Mirrors the ports without suffixes.
  struct In {
    bool rec_valid = false;
    BranchRecord rec_data{};
    bool dump_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;  ///< 5 bits
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool rec_ready = false;
    bool dump_valid = false;
    Hpt::DumpEntry dump{};  ///< meaningful only when dump_valid
    bool dump_busy = false;
    uint32_t csr_rdata = 0;
  };

  /// prob: the HPT's probation area (none by default; model::Hpt).
  PathProfiler(unsigned queue_depth = 4, unsigned depth = 16, unsigned max_len = 32, unsigned sets = 128,
               unsigned ways = 4, const HptProbation& prob = {})
      : frontend_(queue_depth, depth, max_len), hpt_(sets, ways, prob) {}

  void reset() {
    frontend_.reset();
    hpt_.reset();
  }

  Out step(const In& in) {
    const bool to_hpt = (in.csr_addr & kHptCsrBase) != 0;
    const unsigned sub = in.csr_addr & (kHptCsrBase - 1);
    PathFrontend::In fi;
    fi.rec_valid = in.rec_valid;
    fi.rec_data = in.rec_data;
    fi.desc_ready = hpt_.in_ready();
    fi.csr_we = in.csr_we && !to_hpt;
    fi.csr_addr = sub;
    fi.csr_wdata = in.csr_wdata;
    const PathFrontend::Out fo = frontend_.step(fi);

    Hpt::In hi;
    hi.in_valid = fo.desc_valid;
    hi.in_desc = fo.desc.path;
    hi.dump_ready = in.dump_ready;
    hi.csr_we = in.csr_we && to_hpt;
    hi.csr_addr = sub;
    hi.csr_wdata = in.csr_wdata;
    const Hpt::Out ho = hpt_.step(hi);

    Out o;
    o.rec_ready = fo.rec_ready;
    o.dump_valid = ho.dump_valid;
    o.dump = ho.dump;
    o.dump_busy = ho.dump_busy;
    o.csr_rdata = to_hpt ? ho.csr_rdata : fo.csr_rdata;
    return o;
  }

  const PathFrontend& frontend() const { return frontend_; }
  const Hpt& hpt() const { return hpt_; }

 private:
  PathFrontend frontend_;
  Hpt hpt_;
};

}  // namespace hwprof::model
