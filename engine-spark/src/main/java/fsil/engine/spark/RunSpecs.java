package fsil.engine.spark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.FsilException;

/** spec.json text back as its tree, and the first difference of two config texts. */
final class RunSpecs {
    private RunSpecs() {
    }

    static ObjectNode tree(String json) {
        try {
            if (new ObjectMapper().readTree(json) instanceof ObjectNode o) {
                return o;
            }
        } catch (JsonProcessingException e) {
            throw new FsilException("the driver's spec is not JSON: " + e.getOriginalMessage(), e);
        }
        throw new FsilException("the driver's spec is not a JSON object");
    }

    static String firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 40);
        return "driver ..." + a.substring(from, Math.min(a.length(), i + 40)) + "... vs executor ..."
                + b.substring(from, Math.min(b.length(), i + 40)) + "...";
    }
}
