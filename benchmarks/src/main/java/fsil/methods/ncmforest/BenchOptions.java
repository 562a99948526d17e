package fsil.methods.ncmforest;

import fsil.api.FsilException;

import java.util.LinkedHashMap;
import java.util.Map;

/** key=value options of a benchmark: defaults, validation of names and numbers, and a one-line description. */
final class BenchOptions {
    private final String bench;
    private final Map<String, String> values = new LinkedHashMap<>();

    BenchOptions(String bench, Map<String, String> defaults, Map<String, String> given) {
        this.bench = bench;
        values.putAll(defaults);
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!defaults.containsKey(e.getKey())) {
                throw new FsilException("benchmark " + bench + " has no option '" + e.getKey() + "'. Valid options "
                        + "(with defaults): " + defaults);
            }
            values.put(e.getKey(), e.getValue());
        }
    }

    String text(String key) {
        return values.get(key);
    }

    int integer(String key, int min) {
        try {
            int v = Integer.parseInt(values.get(key).trim());
            if (v < min) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new FsilException("benchmark " + bench + ": option " + key + "=" + values.get(key)
                    + " must be an integer >= " + min);
        }
    }

    double real(String key, double min) {
        try {
            double v = Double.parseDouble(values.get(key).trim());
            if (!(v >= min) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new FsilException("benchmark " + bench + ": option " + key + "=" + values.get(key)
                    + " must be a finite number >= " + min);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
        return sb.toString().trim();
    }
}
