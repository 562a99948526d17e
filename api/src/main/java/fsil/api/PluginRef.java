package fsil.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plugin as the command line and run files write it: {@code id} or {@code id[key=value,...]}, e.g.
 * {@code pretrained-mlp[hidden=256-128,epochs=10]}. Values are text, validated later by the plugin's declared
 * {@link Param}s; they may not contain ',' or ']' (a plugin that takes such values, e.g. a path, also accepts a
 * legacy {@code id:value} spelling, handled by the caller).
 *
 * @param id     the plugin id
 * @param params the values given, in order
 */
public record PluginRef(String id, Map<String, String> params) {

    public PluginRef {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** Parses {@code id[key=value,...]}; a one-line {@link FsilException} says what is wrong. */
    public static PluginRef parse(String what, String text) {
        String t = text == null ? "" : text.strip();
        int bracket = t.indexOf('[');
        String id = (bracket < 0 ? t : t.substring(0, bracket)).strip();
        if (id.isEmpty()) {
            throw new FsilException("empty " + what + " in '" + text + "': write " + what + " or "
                    + what + "[key=value,...]");
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (bracket >= 0) {
            if (!t.endsWith("]") || t.indexOf(']') != t.length() - 1) {
                throw new FsilException(what + " '" + text + "' must look like id[key=value,...]");
            }
            for (String kv : t.substring(bracket + 1, t.length() - 1).split(",")) {
                if (kv.isBlank()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new FsilException("parameter '" + kv.strip() + "' in " + what + " '" + text
                            + "' must look like key=value");
                }
                String key = kv.substring(0, eq).strip();
                if (params.put(key, kv.substring(eq + 1).strip()) != null) {
                    throw new FsilException("parameter '" + key + "' given twice in " + what + " '" + text + "'");
                }
            }
        }
        return new PluginRef(id, params);
    }

    /** Splits a comma-separated list of references; commas inside brackets belong to a reference. */
    public static List<String> splitList(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String part = text.substring(start, i).strip();
                if (!part.isEmpty()) {
                    out.add(part);
                }
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new FsilException("unbalanced brackets in '" + text + "'");
        }
        return out;
    }

    /** The text {@link #parse} reads back. */
    public String text() {
        if (params.isEmpty()) {
            return id;
        }
        List<String> kv = new ArrayList<>();
        params.forEach((k, v) -> kv.add(k + "=" + v));
        return id + "[" + String.join(",", kv) + "]";
    }

    @Override
    public String toString() {
        return text();
    }
}
