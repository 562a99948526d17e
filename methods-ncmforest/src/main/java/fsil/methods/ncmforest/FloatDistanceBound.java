package fsil.methods.ncmforest;

/**
 * How far a squared distance summed in float can be from the exact kernel's value ({@link
 * fsil.core.linalg.Distances#squared(float[], int, float[], int, int)}), so that float sums can decide a nearest
 * centroid exactly whenever they are far enough apart.
 *
 * <p>Both computations start from the same float differences t_j = fl32(x_j - c_j). The exact kernel sums the squares
 * t_j^2 (exact in float64) with four accumulators; its rounding error is at most g64 A, where A = sum_j t_j^2 and
 * g64 = n' 2^-53 / (1 - n' 2^-53) for its longest chain of n' = d/4 + 6 additions. The float sum rounds each square to
 * float (relative error at most u = 2^-24, plus at most 2^-150 absolute if it underflows) and adds the d terms in
 * ascending order, from zero (error at most g32 times their sum, g32 = (d - 1) u / (1 - (d - 1) u)). A finite float
 * sum S is therefore within E(S) = a S + b of the exact value, with
 * a = (u + g32 (1 + u) + g64) / ((1 - g32)(1 - u)) and b = ((u + g32 (1 + u) + g64) / (1 - u) + 1 + g32) d 2^-150.
 * Both are inflated by 1%, which covers the rounding of E and of S +- E in float64 many times over. (A float sum that
 * overflowed is not finite and is never used.) For d = 1,000, E is about 6e-5 S.
 */
final class FloatDistanceBound {
    private final double slope;
    private final double offset;
    private final boolean usable;

    FloatDistanceBound(int d) {
        double u = Math.scalb(1.0, -24);
        double m = Math.max(0, d - 1);
        double g32 = m * u / (1 - m * u);
        double chain = d / 4.0 + 6;
        double g64 = chain * Math.scalb(1.0, -53) / (1 - chain * Math.scalb(1.0, -53));
        double rel = u + g32 * (1 + u) + g64;
        double tiny = d * Math.scalb(1.0, -150);
        this.usable = m * u < 0.25;
        this.slope = 1.01 * rel / ((1 - g32) * (1 - u));
        this.offset = 1.01 * (rel / (1 - u) + 1 + g32) * tiny;
    }

    /** E(s) for a finite float sum s. */
    double of(double s) {
        return slope * s + offset;
    }

    /** False when d is so large (over 4 million) that the bound is meaningless: then only exact distances are used. */
    boolean usable() {
        return usable;
    }
}
