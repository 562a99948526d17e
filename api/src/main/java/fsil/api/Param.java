package fsil.api;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A typed, documented method parameter with a default value and a domain. Values arrive as text from the
 * command line or run files ({@link #parse}) or as Java values from notebooks ({@link #validate}).
 *
 * @param <T> Integer, Double, Boolean or String (for choices)
 */
public final class Param<T> {
    /** The value types a parameter can have. */
    public enum Type { INT, REAL, BOOL, CHOICE }

    private final String name;
    private final Type type;
    private final Class<T> javaType;
    private final T defaultValue;
    private final String doc;
    private final double min;
    private final double max;
    private final List<String> choices;

    private Param(String name, Type type, Class<T> javaType, T defaultValue, String doc, double min, double max,
                  List<String> choices) {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_.-]*")) {
            throw new IllegalArgumentException("parameter name must start with a letter and use [A-Za-z0-9_.-]: " + name);
        }
        this.name = name;
        this.type = type;
        this.javaType = javaType;
        this.defaultValue = Objects.requireNonNull(defaultValue);
        this.doc = Objects.requireNonNull(doc);
        this.min = min;
        this.max = max;
        this.choices = List.copyOf(choices);
        validate(defaultValue);
    }

    /** An integer parameter in [min, max]. */
    public static Param<Integer> integer(String name, int defaultValue, int min, int max, String doc) {
        return new Param<>(name, Type.INT, Integer.class, defaultValue, doc, min, max, List.of());
    }

    /** A real parameter in [min, max] (use infinities for open ends). */
    public static Param<Double> real(String name, double defaultValue, double min, double max, String doc) {
        return new Param<>(name, Type.REAL, Double.class, defaultValue, doc, min, max, List.of());
    }

    public static Param<Boolean> bool(String name, boolean defaultValue, String doc) {
        return new Param<>(name, Type.BOOL, Boolean.class, defaultValue, doc, 0, 1, List.of());
    }

    /** One of a fixed list of words. */
    public static Param<String> choice(String name, String defaultValue, String doc, String... choices) {
        if (choices.length == 0) {
            throw new IllegalArgumentException("choice parameter " + name + " needs at least one choice");
        }
        return new Param<>(name, Type.CHOICE, String.class, defaultValue, doc, 0, 0, List.of(choices));
    }

    public String name() {
        return name;
    }

    public Type type() {
        return type;
    }

    public Class<T> javaType() {
        return javaType;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String doc() {
        return doc;
    }

    public List<String> choices() {
        return choices;
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    /** Human-readable domain, e.g. "integer in [0, 100]" or "one of [full, randomized]". */
    public String domain() {
        return switch (type) {
            case INT -> "integer in [" + (long) min + ", " + (long) max + "]";
            case REAL -> "real in [" + fmt(min) + ", " + fmt(max) + "]";
            case BOOL -> "true or false";
            case CHOICE -> "one of " + choices;
        };
    }

    private static String fmt(double v) {
        if (v == Double.POSITIVE_INFINITY) {
            return "inf";
        }
        if (v == Double.NEGATIVE_INFINITY) {
            return "-inf";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** Parses and validates a textual value. */
    public T parse(String text) {
        if (text == null) {
            throw new InvalidParameterException("parameter '" + name + "' needs a value (" + domain() + ")");
        }
        String s = text.trim();
        Object value;
        try {
            value = switch (type) {
                case INT -> Integer.valueOf(s);
                case REAL -> Double.valueOf(s);
                case BOOL -> {
                    String l = s.toLowerCase(Locale.ROOT);
                    if (!l.equals("true") && !l.equals("false")) {
                        throw new NumberFormatException();
                    }
                    yield Boolean.valueOf(l);
                }
                case CHOICE -> s;
            };
        } catch (NumberFormatException e) {
            throw new InvalidParameterException("parameter '" + name + "' got '" + text + "', expected " + domain());
        }
        return validate(value);
    }

    /** Checks a Java value against the type and domain; returns it typed. */
    public T validate(Object value) {
        Object v = value;
        if (type == Type.REAL && v instanceof Number n && !(v instanceof Double)) {
            v = n.doubleValue();
        }
        if (!javaType.isInstance(v)) {
            throw new InvalidParameterException("parameter '" + name + "' got " + value + " ("
                    + (value == null ? "null" : value.getClass().getSimpleName()) + "), expected " + domain());
        }
        boolean ok = switch (type) {
            case INT -> (Integer) v >= min && (Integer) v <= max;
            case REAL -> {
                double d = (Double) v;
                yield !Double.isNaN(d) && d >= min && d <= max;
            }
            case BOOL -> true;
            case CHOICE -> choices.contains(v);
        };
        if (!ok) {
            throw new InvalidParameterException("parameter '" + name + "' got " + value + ", expected " + domain());
        }
        return javaType.cast(v);
    }

    /** The textual form of a value of this parameter (parse(format(v)) == v). */
    public String format(Object value) {
        return String.valueOf(value);
    }

    @Override
    public String toString() {
        return name + " (" + domain() + ", default " + defaultValue + ")";
    }
}
