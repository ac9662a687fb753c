// The interface every Verilated engine has (RtlEngine<Model>: the cycle
// model's In/Out behind a Verilated top), and the registry of the Verilated
// configurations of one unit (RtlRegistry), filled from the generated
// configuration list (sim/rtl_configs.cmake): the CLI configurations by the
// sim library, the test-only ones by the test library (tb/) when a test asks.
// No Verilator headers here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim_options.h"

namespace hwprof::sim {

/// Common interface of the RTL engines (reset() works mid-stream too).
template <typename Model>
class RtlEngine {
 public:
  using In = typename Model::In;
  using Out = typename Model::Out;
  virtual ~RtlEngine() = default;
  virtual void reset() = 0;
  /// Applies `in`, samples the outputs, then clocks one rising edge.
  virtual typename Model::Out step(const typename Model::In& in) = 0;
  /// Clock edges so far.
  virtual uint64_t cycles() const = 0;
  virtual void flush_wave() = 0;
  virtual std::string wave_path() const = 0;
};

/// The Verilated configurations of one unit, by configuration name.
template <typename Engine>
class RtlRegistry {
 public:
  using Factory = std::unique_ptr<Engine> (*)(const SimOptions&, const std::string& wave_name, uint64_t seed);

  /// Adds a configuration (a name already present is kept as it is).
  void add(const std::string& name, Factory f) {
    for (const auto& e : entries_)
      if (e.first == name) return;
    entries_.emplace_back(name, f);
  }
  bool has(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.first == name) return true;
    return false;
  }
  /// A started (reset) engine of that configuration; nullptr if none.
  std::unique_ptr<Engine> make(const std::string& name, const SimOptions& opt, const std::string& wave_name,
                               uint64_t seed) const {
    for (const auto& e : entries_)
      if (e.first == name) {
        auto p = e.second(opt, wave_name, seed);
        p->reset();
        return p;
      }
    return nullptr;
  }
  /// "a, b, c": the registered names, for error messages.
  std::string names() const {
    std::string s;
    for (const auto& e : entries_) s += (s.empty() ? "" : ", ") + e.first;
    return s;
  }

 private:
  std::vector<std::pair<std::string, Factory>> entries_;
};

/// Factory of the engine class `Impl` (an RtlEngine<...> adapter over one
/// Verilated class), for RtlRegistry::add.
template <typename Engine, typename Impl>
std::unique_ptr<Engine> make_rtl(const SimOptions& opt, const std::string& wave_name, uint64_t seed) {
  return std::make_unique<Impl>(opt, wave_name, seed);
}

}  // namespace hwprof::sim
