#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"request/skew-parity"};

TEST_CASE("The skew-parity cell: the shared transform reproduces offline accuracy and every skew fails parity",
          "[request][skew]") {
  const auto r = cell.run();
  // A 784-256-10 MLP after one epoch over 5,000 digits: about 93 % on held-out digits (a broken training or
  // data path gives ~10 %).
  CHECK(out(r, "offline_accuracy_frac") > 0.88);
  CHECK(out(r, "accuracy_shared_frac") == out(r, "offline_accuracy_frac"));
  CHECK(out(r, "parity_shared") == 0.0);
  CHECK(out(r, "parity_failures") == 4);
  // Standardizing with the wrong statistics shifts every input and costs several points.
  CHECK(out(r, "accuracy_imagenet_frac") < out(r, "offline_accuracy_frac") - 0.02);
  CHECK_THAT(out(r, "book_drop_pp"), WithinRel(95.0 - 90.0, 1e-12));  // the book's two numbers, not a book row
}

TEST_CASE("Training is deterministic: the same seed gives the same model, another seed another one",
          "[request][skew]") {
  const std::map<std::string, std::string> small = {{"train_n", "500"}, {"hidden", "32"}};
  const auto a = cell.run(small, "3");
  const auto b = cell.run(small, "4");
  const auto a2 = cell.run(small, "3");
  CHECK(out(a, "train_accuracy_frac") == out(a2, "train_accuracy_frac"));
  CHECK(out(a, "accuracy_nearest_frac") == out(a2, "accuracy_nearest_frac"));
  CHECK(out(a, "train_accuracy_frac") != out(b, "train_accuracy_frac"));
  CHECK(cell.error({{"train_n", "6000"}}).param == "train_n");
}

TEST_CASE("Raising the tolerance above a skew's parity difference lets that skew pass", "[request][skew]") {
  // At the defaults the smallest skew differs by about 0.96 (bilinear without antialias), the largest by 824
  // (no /255): the widest tolerance, 100, lets every skew but that one through.
  const auto r = cell.run({{"tolerance", "100"}});
  CHECK(out(r, "parity_failures") == 1);
  for (double tol : column(r, "variants", "tolerance")) CHECK(tol == 100);
  const auto strict = cell.run({{"tolerance", "1e-6"}});
  CHECK(out(strict, "parity_failures") == 4);
}

}  // namespace SL_UNITY_ID
