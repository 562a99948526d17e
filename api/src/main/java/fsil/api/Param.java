package fsil.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A typed, documented method parameter with a default value and a domain. Values arrive as text from the
 * command line or run files ({@link #parse}) or as Java values from notebooks ({@link #validate}).
 *
 * @param <T> Integer, Double, Boolean, String ({@link #text}), or an enum (choices: {@link #option}, so a misspelt
 *            choice does not compile)
 */
public final class Param<T> {
    /** The value types a parameter can have. */
    public enum Type { INT, REAL, BOOL, CHOICE, TEXT }

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

    /**
     * A text value, e.g. a path. It may not contain ',' or ']' when written inside {@code id[...]}; the empty text is
     * a valid value (a plugin that requires one says so when it resolves its parameters).
     */
    public static Param<String> text(String name, String defaultValue, String doc) {
        return new Param<>(name, Type.TEXT, String.class, defaultValue, doc, 0, 0, List.of());
    }

    /**
     * One of the constants of an enum. On the command line and in results a constant is written as its name in
     * lower case with '-' for '_' ({@link #text(Enum)}): {@code STICK_BREAK} is {@code stick-break}.
     */
    public static <E extends Enum<E>> Param<E> option(String name, E defaultValue, String doc) {
        Class<E> type = defaultValue.getDeclaringClass();
        List<String> texts = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            texts.add(text(e));
        }
        return new Param<>(name, Type.CHOICE, type, defaultValue, doc, 0, 0, texts);
    }

    /** The textual form of an enum constant: its name in lower case, '_' written as '-'. */
    public static String text(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
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
            case TEXT -> "text";
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
        if (type == Type.TEXT) {
            return validate(text);
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
                case CHOICE -> constant(s);
                case TEXT -> s;
            };
        } catch (NumberFormatException e) {
            throw new InvalidParameterException("parameter '" + name + "' got '" + text + "', expected " + domain());
        }
        return validate(value);
    }

    private Object constant(String text) {
        int i = choices.indexOf(text);
        if (i < 0) {
            throw new InvalidParameterException("parameter '" + name + "' got '" + text + "', expected " + domain());
        }
        return javaType.getEnumConstants()[i];
    }

    /** Checks a Java value against the type and domain; returns it typed. A choice may also be given as text. */
    public T validate(Object value) {
        Object v = value;
        if (type == Type.REAL && v instanceof Number n && !(v instanceof Double)) {
            v = n.doubleValue();
        }
        if (type == Type.CHOICE && v instanceof String text) {
            v = constant(text);
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
            case BOOL, CHOICE, TEXT -> true;
        };
        if (!ok) {
            throw new InvalidParameterException("parameter '" + name + "' got " + value + ", expected " + domain());
        }
        return javaType.cast(v);
    }

    /** The textual form of a value of this parameter (parse(format(v)) == v). */
    public String format(Object value) {
        return value instanceof Enum<?> e ? text(e) : String.valueOf(value);
    }

    @Override
    public String toString() {
        return name + " (" + domain() + ", default " + format(defaultValue) + ")";
    }
}
