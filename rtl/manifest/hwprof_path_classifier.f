rtl/common/hwprof_pkg.sv
rtl/path_profiler/hwprof_path_classifier.sv
