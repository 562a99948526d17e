package fsil.eval.metrics;

/**
 * A sum kept as a double-double (Knuth's TwoSum; relative error about 1e-32), so that totals pooled over units are
 * the same however the tasks were grouped into units, threads or engines: the rounded result does not depend on the
 * order of the additions unless the exact sum lies within 1e-32 relative of a rounding boundary.
 */
public final class ExactSum {
    private double hi;
    private double lo;

    public void add(double x) {
        add(x, 0);
    }

    /** Adds another double-double hi + lo. */
    public void add(double x, double xLo) {
        double s = hi + x;
        double bv = s - hi;
        double err = (hi - (s - bv)) + (x - bv);
        hi = s;
        lo += err + xLo;
    }

    public void add(ExactSum other) {
        add(other.hi, other.lo);
    }

    /** The sum, rounded once. */
    public double value() {
        return hi + lo;
    }

    /** [hi, lo] for a unit's stored value. */
    public Value toValue() {
        return Value.array(new double[]{hi, lo});
    }

    /** Adds a stored [hi, lo]. */
    public void add(Value stored) {
        add(stored.get(0).asDouble(), stored.get(1).asDouble());
    }
}
