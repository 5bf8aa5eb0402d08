import * as AvailableModule from 'twilio/lib/rest/api/v2010/account/availablePhoneNumberCountry.js';
import type { AvailableNumber } from './port.js';
import { emptyToNull, twilioAdapter, type TwilioPart } from './twilio-client.js';

/** Searching numbers for sale, on the SDK's AvailablePhoneNumbers resource. */
export const twilioSearch: TwilioPart = ({ api, run }) => ({
    searchAvailable(account, query) {
      return run(async () => {
        const found = await AvailableModule.AvailablePhoneNumberCountryListInstance(api(account), account.accountSid)(query.country.toUpperCase())
          .local.list({
            ...(query.areaCode ? { areaCode: Number(query.areaCode) } : {}),
            ...(query.contains ? { contains: query.contains } : {}),
            voiceEnabled: true,
            limit: query.limit ?? 20,
          });
        return found.map(
          (n): AvailableNumber => ({
            number: n.phoneNumber,
            friendlyName: n.friendlyName,
            locality: emptyToNull(n.locality),
            region: emptyToNull(n.region),
            postalCode: emptyToNull(n.postalCode),
            country: n.isoCountry,
            capabilities: {
              voice: Boolean(n.capabilities?.voice),
              sms: Boolean(n.capabilities?.sms ?? (n.capabilities as { SMS?: boolean } | undefined)?.SMS),
              mms: Boolean(n.capabilities?.mms ?? (n.capabilities as { MMS?: boolean } | undefined)?.MMS),
            },
          }),
        );
      }, true);
    },
});

/** The adapter of the entry points that only search numbers for sale. */
export const createTwilioSearch = twilioAdapter(twilioSearch);
