// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "name": "check_order_status",
 *       "type": "http",
 *       "description": "Looks up the delivery status of an order by its number.",
 *       "config": {
 *         "method": "GET",
 *         "url": "https://api.example.com/orders/{order_id}/status",
 *         "headers": {
 *           "Authorization": "Bearer sk_test_51Hc2xV0a9Q7"
 *         }
 *       },
 *       "parameters": [
 *         {
 *           "name": "order_id",
 *           "description": "The order number the caller reads out, e.g. 10023",
 *           "required": true
 *         }
 *       ]
 *     }
 */
export type ToolCreate<S extends Record<"HttpToolCreate" | "IntegrationToolCreate" | "TransferToolCreate" | "McpToolCreate", unknown>> = S["HttpToolCreate"] | S["IntegrationToolCreate"] | S["TransferToolCreate"] | S["McpToolCreate"];
