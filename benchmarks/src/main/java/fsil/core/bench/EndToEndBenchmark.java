package fsil.core.bench;

import fsil.api.AbstractPlugin;
import fsil.api.Param;

import java.util.Arrays;
import java.util.List;

/**
 * What the end-to-end benchmarks of this module ({@code fsil bench <id>}) share: the id, description and parameters
 * given once, to the constructor, as the other plugins do ({@link AbstractPlugin}), and the median their tables
 * report. It sits in a core package so that the benchmarks in the method packages may use it (those use only the
 * api, core and their own method).
 */
public abstract class EndToEndBenchmark extends AbstractPlugin implements Benchmark {

    protected EndToEndBenchmark(String id, String description, List<Param<?>> parameters) {
        super(id, description, parameters);
    }

    /** The median of the values (the mean of the middle two for an even count); the array is left as it is. */
    protected static double median(double[] values) {
        double[] t = values.clone();
        Arrays.sort(t);
        int n = t.length;
        return n % 2 == 1 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    }
}
