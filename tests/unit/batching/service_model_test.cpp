#include <catch2/catch.hpp>

#include "batching/service_model.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

using namespace sl::batching;

namespace {

sl::Result<ServiceModelParams> validate(std::map<std::string, std::string> raw) {
  return validate_service_model(cell_test::parsed_inputs(service_model_params(), raw));
}

}  // namespace

TEST_CASE("The linear law is fixed + per_item B, and throughput B / T_svc(B)", "[batching][service]") {
  const ServiceModel m = ServiceModel::linear(5e-3, 0.6e-3);
  CHECK(m.is_linear());
  CHECK_THAT(m.service_s(32), WithinRel(24.2e-3, 1e-12));           // Table 11: 5 + 0.6 x 32
  CHECK_THAT(m.throughput_per_s(32), WithinRel(32 / 24.2e-3, 1e-12));
}

TEST_CASE("Interpolated points: exact at the points, linear between, the end segments extended", "[batching][service]") {
  const ServiceModel m = ServiceModel::interpolated(table9_points_s());
  CHECK_FALSE(m.is_linear());
  for (const auto& [b, t_s] : table9_points_s()) CHECK_THAT(m.service_s(b), WithinRel(t_s, 1e-12));
  CHECK_THAT(m.service_s(24), WithinRel((14.0 + 25.0) / 2 * 1e-3, 1e-12));       // halfway from 16 to 32
  CHECK_THAT(m.service_s(64), WithinRel((25.0 + 32 * (11.0 / 16)) * 1e-3, 1e-12));  // last slope 11 ms / 16
}

TEST_CASE("validate_service_model reads the law and rejects a linear model that takes no time", "[batching][service]") {
  CHECK(validate({}).value().law == ServiceLaw::Linear);
  CHECK(validate({{"service", "table9"}}).value().law == ServiceLaw::Table9);
  const auto fit = validate({{"svc_fixed_ms", "2"}, {"svc_per_item_ms", "1"}}).value();
  CHECK(fit.linear.fixed_ms == 2);
  CHECK(fit.linear.per_item_ms == 1);
  const auto zero = validate({{"svc_fixed_ms", "0"}, {"svc_per_item_ms", "0"}});
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().code == "invalid");
  CHECK(zero.error().param == "svc_fixed_ms");
  // Table 9's points ignore the linear coefficients, so zeros there are no error.
  CHECK(validate({{"service", "table9"}, {"svc_fixed_ms", "0"}, {"svc_per_item_ms", "0"}}).ok());
  const auto m = make_service_model(validate({{"svc_fixed_ms", "2"}, {"svc_per_item_ms", "1"}}).value(), 1, nullptr);
  CHECK_THAT(m.service_s(3), WithinRel(5e-3, 1e-12));
}

}  // namespace SL_UNITY_ID
