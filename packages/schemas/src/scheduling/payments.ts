import { z } from "zod";
import { listQuery } from "./common.ts";

/** The provider's `data` and `externalId` stay on the server. */
export const Payment = z
  .object({
    id: z.int(),
    uid: z.string(),
    bookingId: z.int(),
    amount: z.int(),
    fee: z.int(),
    currency: z.string(),
    success: z.boolean(),
    refunded: z.boolean(),
    paymentOption: z.enum(["ON_BOOKING", "HOLD"]).nullable(),
  })
  .meta({ id: "Payment", description: "A payment for a booking (read-only)" });

export const PaymentListQuery = listQuery({});
