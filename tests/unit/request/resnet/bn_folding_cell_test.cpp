#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "request/resnet/resnet50.h"

namespace SL_UNITY_ID {

using namespace sl::request;

const cell_test::Cell cell{"request/bn-folding"};

TEST_CASE("The bn-folding cell reports the BN traffic it removes and a tiny output difference",
          "[request][bn-folding][resnet]") {
  const auto r = cell.run({{"resolution", "64"}, {"width", "0.25"}});
  CHECK(out(r, "num_bn") == 53);
  // Each BN pass reads and writes its conv's output once: 2 x 4 bytes per element of every BN output.
  const auto plan = resnet50_plan({64, 0.25, 1000});
  CHECK(out(r, "bn_traffic_bytes") == 8.0 * static_cast<double>(plan.bn_output_floats()));
  CHECK(out(r, "max_rel_diff") < 1e-4);
  CHECK(out(r, "forward_bn_ms") > 0);
  CHECK_THAT(out(r, "speedup"), WithinRel(out(r, "forward_bn_ms") / out(r, "forward_folded_ms"), 1e-12));
  const auto& mb = column(r, "stages", "bn_traffic_mb");
  double sum = 0;
  for (double v : mb) sum += v;
  CHECK_THAT(sum, WithinRel(out(r, "bn_traffic_bytes") * 1e-6, 1e-9));
}

TEST_CASE("The bn-folding cell rejects a resolution too small for ResNet-50", "[request][bn-folding]") {
  const auto e = cell.error({{"resolution", "16"}});
  CHECK(e.code == "out_of_range");
  CHECK(e.param == "resolution");
  CHECK(cell.error({{"reps", "0"}}).param == "repeats");  // the old name, an alias
}

}  // namespace SL_UNITY_ID
