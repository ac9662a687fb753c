# phase/markov: configurations, engines and lock-step tests (see tb/CMakeLists.txt)
