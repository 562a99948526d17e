package fsil.backbones.djl;

import fsil.api.EmbeddingObjective;
import fsil.api.FsilException;
import fsil.api.Method;
import fsil.api.Params;
import fsil.api.Registry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code objective} parameter of the convolutional backbones: {@code cross-entropy}, or a method's
 * {@link EmbeddingObjective} written {@code method} or {@code method(key=value;key=value)} with the method's own
 * parameters (e.g. {@code lsgp(tau=0.2;loss=ml)}). The method is found by id among the methods
 * {@link java.util.ServiceLoader} discovers (built-ins and plugins on the class path): this module depends on no
 * method module. Holds no DJL type.
 */
final class Objectives {

    private Objectives() {
    }

    /** A method's objective with resolved parameters. */
    record Resolved(String method, Params params, EmbeddingObjective objective) {
        /** {@code method(objective's describe())}, the canonical text. */
        String describe() {
            return method + "(" + objective.describe() + ")";
        }
    }

    /** Null for cross-entropy; otherwise the method's objective, or a one-line error naming what is wrong. */
    static Resolved resolve(String text) {
        String t = text == null ? "" : text.strip();
        if (t.equals(ConvBackbone.CROSS_ENTROPY)) {
            return null;
        }
        int open = t.indexOf('(');
        String id = (open < 0 ? t : t.substring(0, open)).strip();
        Map<String, String> values = new LinkedHashMap<>();
        if (open >= 0) {
            if (!t.endsWith(")") || t.indexOf(')') != t.length() - 1) {
                throw new FsilException("objective '" + text + "' must look like method or method(key=value;key=value),"
                        + " e.g. lsgp(tau=0.2;loss=ml); separate the method's parameters with ';', not ','");
            }
            for (String kv : t.substring(open + 1, t.length() - 1).split(";")) {
                if (kv.isBlank()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new FsilException("objective '" + text + "': '" + kv.strip() + "' must look like key=value");
                }
                values.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
            }
        }
        if (id.isEmpty()) {
            throw new FsilException("objective '" + text + "': write " + ConvBackbone.CROSS_ENTROPY
                    + " or a method id, e.g. lsgp");
        }
        Registry<Method> methods = Registry.discover("method", Method.class, Method::id);
        if (!methods.contains(id)) {
            throw new FsilException("objective '" + text + "': no method '" + id + "'; write "
                    + ConvBackbone.CROSS_ENTROPY + " or one of the methods with an objective: " + withObjective(methods));
        }
        Method m = methods.get(id);
        Params p = m.params(values);
        EmbeddingObjective o = m.objective(p).orElseThrow(() -> new FsilException("objective '" + text
                + "': method " + id + " offers no training objective; methods with one: " + withObjective(methods)));
        return new Resolved(id, p, o);
    }

    private static String withObjective(Registry<Method> methods) {
        StringBuilder sb = new StringBuilder();
        for (Method m : methods.all()) {
            if (m.objective(m.defaults()).isPresent()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(m.id());
            }
        }
        return sb.length() == 0 ? "(none found on the class path)" : sb.toString();
    }
}
