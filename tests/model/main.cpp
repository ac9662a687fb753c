// Boost.Test entry point for the model-library unit tests.
#define BOOST_TEST_MODULE hwprof_models
#include <boost/test/unit_test.hpp>
