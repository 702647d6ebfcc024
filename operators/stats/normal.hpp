#pragma once
// The standard normal distribution's tail and quantile, for the rank tests' approximations.
namespace rubric::stats {
double normal_sf(double z);         // P(Z > z)
double normal_quantile(double p);   // z with P(Z <= z) = p, p in (0, 1)
}  // namespace rubric::stats
