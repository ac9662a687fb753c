# phase/detector: configurations, engines and lock-step tests (see tb/CMakeLists.txt)
