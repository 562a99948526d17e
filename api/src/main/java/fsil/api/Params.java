package fsil.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Resolved, validated values for every parameter a method declares (defaults filled in). Immutable.
 * Unknown names and bad values are rejected with a message listing the valid parameters.
 */
public final class Params {
    private final String methodId;
    private final List<Param<?>> declared;
    private final Map<String, Object> values;

    private Params(String methodId, List<Param<?>> declared, Map<String, Object> values) {
        this.methodId = methodId;
        this.declared = declared;
        this.values = values;
    }

    /** All defaults. */
    public static Params defaults(String methodId, List<Param<?>> declared) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (Param<?> p : declared) {
            if (v.put(p.name(), p.defaultValue()) != null) {
                throw new IllegalStateException(owner(methodId) + " declares parameter '" + p.name() + "' twice");
            }
        }
        return new Params(methodId, List.copyOf(declared), Collections.unmodifiableMap(v));
    }

    /** Defaults overridden by textual values (from the command line or a run file). */
    public static Params resolve(String methodId, List<Param<?>> declared, Map<String, String> text) {
        Params p = defaults(methodId, declared);
        for (Map.Entry<String, String> e : text.entrySet()) {
            p = p.withText(e.getKey(), e.getValue());
        }
        return p;
    }

    public String methodId() {
        return methodId;
    }

    public List<Param<?>> declared() {
        return declared;
    }

    /** A copy with one value changed, given as text. */
    public Params withText(String name, String text) {
        Param<?> p = find(name);
        return with(p, p.parse(text));
    }

    /** A copy with one value changed, given as a Java value (Integer, Double, Boolean, an enum constant or its text). */
    public Params with(String name, Object value) {
        Param<?> p = find(name);
        return with(p, p.validate(value));
    }

    private Params with(Param<?> p, Object value) {
        Map<String, Object> v = new LinkedHashMap<>(values);
        v.put(p.name(), value);
        return new Params(methodId, declared, Collections.unmodifiableMap(v));
    }

    public <T> T get(Param<T> p) {
        Object v = values.get(p.name());
        if (v == null) {
            throw new IllegalArgumentException("parameter '" + p.name() + "' is not declared by method " + methodId);
        }
        return p.javaType().cast(v);
    }

    public Object get(String name) {
        return values.get(find(name).name());
    }

    /** The value of a parameter as text (an enum constant as it is written on the command line). */
    public String text(String name) {
        Param<?> p = find(name);
        return p.format(values.get(p.name()));
    }

    /** Every value (defaults included) as text, in declaration order. */
    public Map<String, String> asText() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Param<?> p : declared) {
            out.put(p.name(), p.format(values.get(p.name())));
        }
        return out;
    }

    /** Only the values that differ from the defaults, as text. */
    public Map<String, String> changedFromDefaults() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Param<?> p : declared) {
            if (!p.defaultValue().equals(values.get(p.name()))) {
                out.put(p.name(), p.format(values.get(p.name())));
            }
        }
        return out;
    }

    private Param<?> find(String name) {
        for (Param<?> p : declared) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        String owner = owner(methodId);
        String closest = fsil.api.Registry.closest(name, declared.stream().map(Param::name).toList());
        throw new InvalidParameterException(owner + " has no parameter '" + name + "'"
                + (closest == null ? "" : " (did you mean '" + closest + "'?)") + ". "
                + (declared.isEmpty() ? "It takes no parameters."
                : "Valid parameters: " + describe(declared)));
    }

    /** The owner as messages name it: "protocol cil" as it is, a method's id alone as "method 'ppca'". */
    private static String owner(String methodId) {
        return methodId.contains(" ") ? methodId : "method '" + methodId + "'";
    }

    /** "a (integer in [1, 10], default 3), b (...)" */
    public static String describe(List<Param<?>> declared) {
        List<String> parts = new ArrayList<>();
        for (Param<?> p : declared) {
            parts.add(p.toString());
        }
        return parts.stream().collect(Collectors.joining(", "));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Params other && other.methodId.equals(methodId) && other.values.equals(values);
    }

    @Override
    public int hashCode() {
        return methodId.hashCode() * 31 + values.hashCode();
    }

    @Override
    public String toString() {
        return methodId + asText();
    }
}
