// Renders the request lab's default photo (assets/photo/default.jpg): a 640 x 480 outdoor scene — sky
// gradient with a sun and clouds, hazy hills, textured grass with a dirt path, a shaded red ball, a house
// and a tree with their shadows, and a little sensor noise — and writes it as a baseline JPEG, quality 90.
// Fully procedural and seeded (hash-based value noise, core/rng.h), so the file is reproducible:
//   ninja -C build/native make_photo && build/native/make_photo assets/photo/default.jpg
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/rng.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace {

constexpr int kWidth = 640;
constexpr int kHeight = 480;
constexpr int kQuality = 90;

struct Rgb {
  double r, g, b;
};
Rgb mix(Rgb a, Rgb b, double t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }
Rgb scale(Rgb a, double s) { return {a.r * s, a.g * s, a.b * s}; }
double clamp01(double x) { return std::min(1.0, std::max(0.0, x)); }
double smooth(double e0, double e1, double x) {
  const double t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

// Value noise on an integer lattice (a hash per corner), smoothly interpolated; fbm sums octaves.
double lattice(int x, int y, int salt) {
  std::uint32_t h = static_cast<std::uint32_t>(x) * 374761393u + static_cast<std::uint32_t>(y) * 668265263u +
                    static_cast<std::uint32_t>(salt) * 2246822519u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return ((h ^ (h >> 16)) & 0xffffff) / double(0xffffff);
}
double value_noise(double x, double y, int salt) {
  const int xi = static_cast<int>(std::floor(x)), yi = static_cast<int>(std::floor(y));
  const double fx = smooth(0, 1, x - xi), fy = smooth(0, 1, y - yi);
  const double top = lattice(xi, yi, salt) + (lattice(xi + 1, yi, salt) - lattice(xi, yi, salt)) * fx;
  const double bottom = lattice(xi, yi + 1, salt) + (lattice(xi + 1, yi + 1, salt) - lattice(xi, yi + 1, salt)) * fx;
  return top + (bottom - top) * fy;
}
double fbm(double x, double y, int octaves, int salt) {
  double sum = 0, amplitude = 0.5, norm = 0;
  for (int o = 0; o < octaves; ++o) {
    sum += amplitude * value_noise(x, y, salt + o);
    norm += amplitude;
    x *= 2.03;
    y *= 2.03;
    amplitude *= 0.5;
  }
  return sum / norm;
}

constexpr double kHorizon = 0.52 * kHeight;
double hill_top(double x) { return kHorizon - 28 - 40 * fbm(x / 160.0, 0.5, 4, 11); }

Rgb sky(double x, double y) {
  Rgb c = mix({52, 98, 178}, {186, 210, 232}, std::pow(y / kHorizon, 1.4));
  const double sun = std::hypot(x - 0.8 * kWidth, y - 0.16 * kHeight);
  c = mix(c, {255, 250, 225}, 0.55 * std::exp(-sun / 70.0));
  if (sun < 22) c = {255, 253, 240};
  const double cloud = smooth(0.52, 0.72, fbm(x / 110.0, y / 45.0, 5, 3));
  return mix(c, scale({246, 246, 250}, 1.0 - 0.25 * (y / kHorizon) * cloud), 0.85 * cloud);
}

Rgb ground(double x, double y) {
  const double depth = (y - kHorizon) / (kHeight - kHorizon);  // 0 far, 1 near
  const double grain = fbm(x / (6 + 30 * (1 - depth)), y / (3 + 10 * (1 - depth)), 5, 21);
  Rgb c = mix({118, 150, 72}, {58, 108, 34}, depth);
  c = scale(c, 0.72 + 0.56 * grain);
  // A dirt path winding from the bottom centre to the horizon.
  const double centre = 0.5 * kWidth + 90 * std::sin(3.2 * depth) - 60 * (1 - depth);
  const double half = 8 + 110 * depth * depth;
  const double edge = std::fabs(x - centre) - half + 6 * (fbm(x / 9.0, y / 9.0, 3, 31) - 0.5) * (1 + 3 * depth);
  if (edge < 0) c = scale(mix(Rgb{164, 134, 96}, Rgb{128, 100, 70}, fbm(x / 5.0, y / 5.0, 4, 41)), 0.85 + 0.3 * grain);
  return mix(c, {170, 190, 205}, 0.35 * std::pow(1 - depth, 3));  // haze far away
}

Rgb hills(double x, double y) {
  const double shade = fbm(x / 40.0, y / 20.0, 4, 51);
  return mix(scale({78, 112, 96}, 0.8 + 0.35 * shade), {160, 182, 200}, 0.45);
}

// Darkens ground under an ellipse (soft edge).
double shadow(double x, double y, double cx, double cy, double rx, double ry) {
  const double d = std::hypot((x - cx) / rx, (y - cy) / ry);
  return 1.0 - 0.45 * (1 - smooth(0.7, 1.1, d));
}

void render(std::vector<std::uint8_t>& out, sl::Rng& rng) {
  const double lx = 0.55, ly = -0.6, lz = 0.58;  // light from the upper right, towards the viewer
  for (int py = 0; py < kHeight; ++py) {
    for (int px = 0; px < kWidth; ++px) {
      const double x = px + 0.5, y = py + 0.5;
      Rgb c;
      if (y < hill_top(x)) c = sky(x, y);
      else if (y < kHorizon) c = hills(x, y);
      else c = scale(ground(x, y), shadow(x, y, 214, 432, 78, 16) * shadow(x, y, 452, 338, 95, 12) *
                                       shadow(x, y, 110, 322, 52, 9));
      // House: front wall, darker side wall, roof, door and windows.
      if (x > 400 && x < 500 && y > 250 && y < 330) {
        c = scale({214, 196, 168}, 0.9 + 0.1 * fbm(x / 4.0, y / 4.0, 3, 61));
        if ((x > 415 && x < 440 && y > 270 && y < 292) || (x > 460 && x < 485 && y > 270 && y < 292)) c = {70, 90, 112};
        if (x > 440 && x < 460 && y > 295) c = {104, 66, 42};
      } else if (x >= 500 && x < 535 && y > 250 + (x - 500) * 0.25 && y < 330 - (x - 500) * 0.2) {
        c = scale({172, 154, 128}, 0.9 + 0.1 * fbm(x / 4.0, y / 4.0, 3, 62));
      }
      if (y <= 250 && y > 200 + std::fabs(x - 450) * 0.9 && x > 392 && x < 508) {
        c = scale({150, 56, 44}, 0.8 + 0.25 * fbm(x / 3.0, y / 1.5, 3, 63) + 0.15 * ((py / 6) % 2));
      }
      // Tree: trunk and a noisy, shaded crown.
      if (x > 104 && x < 118 && y > 250 && y < 322) c = scale({92, 64, 40}, 0.8 + 0.3 * fbm(x / 2.0, y / 8.0, 3, 71));
      const double crown = std::hypot((x - 111) / 48.0, (y - 222) / 56.0) + 0.35 * (fbm(x / 12.0, y / 12.0, 4, 72) - 0.5);
      if (crown < 1.0) {
        const double lit = clamp01(0.55 + 0.45 * ((x - 111) / 48.0 * lx + (y - 222) / 56.0 * ly));
        c = scale({46, 104, 40}, 0.55 + 0.6 * lit * (0.7 + 0.6 * fbm(x / 5.0, y / 5.0, 4, 73)));
      }
      // Ball: a red sphere with Lambert shading, a specular highlight and a stripe.
      const double bx = (x - 200) / 64.0, by = (y - 372) / 64.0, r2 = bx * bx + by * by;
      if (r2 < 1.0) {
        const double bz = std::sqrt(1 - r2);
        const double diffuse = std::max(0.0, bx * lx + by * ly + bz * lz);
        const double spec = std::pow(std::max(0.0, 2 * diffuse * bz - lz), 24);
        Rgb base = std::fabs(bx * 0.8 + by * 0.6) < 0.18 ? Rgb{240, 220, 90} : Rgb{200, 34, 30};
        c = mix(scale(base, 0.22 + 0.78 * diffuse), {255, 255, 255}, 0.8 * spec);
      }
      const double noise = 3.0 * (rng.uniform() + rng.uniform() - 1.0);
      std::uint8_t* o = &out[(static_cast<std::size_t>(py) * kWidth + px) * 3];
      o[0] = static_cast<std::uint8_t>(std::lround(std::min(255.0, std::max(0.0, c.r + noise))));
      o[1] = static_cast<std::uint8_t>(std::lround(std::min(255.0, std::max(0.0, c.g + noise))));
      o[2] = static_cast<std::uint8_t>(std::lround(std::min(255.0, std::max(0.0, c.b + noise))));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_photo <out.jpg>\n");
    return 2;
  }
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(kWidth) * kHeight * 3);
  sl::Rng rng = sl::Rng::stream(2026, sl::Stream::Misc);
  render(pixels, rng);
  if (stbi_write_jpg(argv[1], kWidth, kHeight, 3, pixels.data(), kQuality) == 0) {
    std::fprintf(stderr, "make_photo: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("wrote %s (%d x %d, quality %d)\n", argv[1], kWidth, kHeight, kQuality);
  return 0;
}
