// Generated from openapi/scheduling.json by `pnpm sdk:generate` (openapi-typescript). Do not edit:
// change the API, run `pnpm openapi:generate`, then `pnpm sdk:generate`.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Welcome message pointing to the docs */
        get: operations["getWelcome"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/attendees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the attendees you can see */
        get: operations["listAttendees"];
        put?: never;
        /** Create a attendee */
        post: operations["addAttendee"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/attendees/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a attendee */
        get: operations["getAttendeeById"];
        put?: never;
        post?: never;
        /** Delete a attendee */
        delete: operations["removeAttendeeById"];
        options?: never;
        head?: never;
        /** Edit a attendee */
        patch: operations["editAttendeeById"];
        trace?: never;
    };
    "/api/v1/availabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the availabilities you can see */
        get: operations["listAvailabilities"];
        put?: never;
        /** Create a availability */
        post: operations["addAvailability"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/availabilities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a availability */
        get: operations["getAvailabilityById"];
        put?: never;
        post?: never;
        /** Delete a availability */
        delete: operations["removeAvailabilityById"];
        options?: never;
        head?: never;
        /** Edit a availability */
        patch: operations["editAvailabilityById"];
        trace?: never;
    };
    "/api/v1/availability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Busy times, working hours and free ranges of a user or a team
         * @description As v1: `userId` or `username` answers one user's availability (any apiKey may read it, as a booking page shows it; booking titles only for yourself or an admin); `teamId` answers `[{userId, availability}]` for every accepted member, to the team's OWNERs and ADMINs. The range may span at most 93 days.
         *
         *     Refused beyond the schema:
         *     - 400 "Either username or userId or teamId should be filled in": availability is asked for by userId, username or teamId (v1's rule and message)
         *     - 400 "dateTo must be after dateFrom": dateTo is after dateFrom
         *     - 400 "the range may span at most 93 days": the range spans at most 93 days
         */
        get: operations["getAvailability"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/booking-references": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the booking references you can see */
        get: operations["listBookingReferences"];
        put?: never;
        /** Create a booking reference */
        post: operations["addBookingReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/booking-references/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a booking reference */
        get: operations["getBookingReferenceById"];
        put?: never;
        post?: never;
        /** Delete a booking reference */
        delete: operations["removeBookingReferenceById"];
        options?: never;
        head?: never;
        /** Edit a booking reference */
        patch: operations["editBookingReferenceById"];
        trace?: never;
    };
    "/api/v1/bookings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the bookings you organise
         * @description v1's filters: attendeeEmail (repeatable), dateFrom, dateTo, status=upcoming, sortBy + order, expand=team. Admins see every booking and may filter by userId (organizer or attendee).
         *
         *     Refused beyond the schema:
         *     - 400 "Invalid ISO Date": dateFrom and dateTo are dates JavaScript's Date.parse reads, as v1 read them (no format names its grammar)
         */
        get: operations["listBookings"];
        put?: never;
        /**
         * Book a slot of an event type
         * @description v1's create: the booking is for the event type's owner; its attendee is the booker. A team event type's booking holds every COLLECTIVE host, or a ROUND_ROBIN event type's fixed hosts and one round-robin host chosen by v1's rule (`luckyUsers`); the first host organizes, the others are attendees after the booker. The start must be one of the event type's slots (GET /slots). Answers 201 with the booking itself, flat, as v1 did (with 200). With an `Idempotency-Key` header, a retry of the same request within 24 hours books nothing and answers the first booking again. `rescheduleUid` moves a booking (the original is cancelled with `rescheduled: true` in the same transaction); `recurringEventId` books one date of a series; a seated slot with room adds the booker to its booking; `eventTypeId: 0` with `eventTypeSlug` and `user` books a dynamic group of users.
         *
         *     Refused beyond the schema:
         *     - 400 "Attempting to book a meeting in the past": the booking starts in the future
         *     - 400 "Invalid event length": end, when sent, is start plus the event type's length
         *     - 400 "booking_time_out_of_bounds_error": the start lies in the event type's booking window (after its minimum notice, within its period)
         *     - 400 "no_available_users_found_error": the host, or the hosts the team event needs, are free at that time by their schedules and bookings
         *     - 400 "eventTypeId 0 books a dynamic group": eventTypeId 0 (v1's dynamic group) comes with eventTypeSlug and two or more usernames in user
         *     - 400 "recurringCount": on a recurring event type, a series booking (recurringEventId) sends recurringCount, at most the event type's count
         *     - 400 "recurring_event_seats_error": a recurring series cannot book a seated event type
         *     - 400 "_bookings_cannot_be_rescheduled": a reschedule (rescheduleUid) replaces a booking that is not cancelled, already rescheduled or over
         *     - 400 "seated booking cannot be rescheduled": a reschedule does not replace a seated booking
         */
        post: operations["addBooking"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings.ics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your bookings as a calendar feed (iCalendar), opened by a feed token
         * @description A calendar app subscribes to this URL with a token from POST /v1/feed-tokens (never an API key). One VEVENT per accepted (CONFIRMED) or pending (TENTATIVE) booking you organise or attend, ending at most 30 days ago, the soonest 1000 at most; cancelled and rejected bookings leave it, a rescheduled one appears at its new time with the same UID and a higher SEQUENCE (those of its e-mailed invites). Times are UTC. Answers ETag and Last-Modified; If-None-Match (or, without it, If-Modified-Since) answers 304 while nothing changed.
         */
        get: operations["getBookingsCalendarFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bookings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a booking */
        get: operations["getBookingById"];
        put?: never;
        post?: never;
        /**
         * Cancel a booking (the row is kept, status CANCELLED)
         * @description As v1: `cancellationReason` (default "Not Provided") and `cancelledBy` come from the query; a JSON body with the same keys is accepted too. The booking's references are removed and its slot is free again. With `allRemainingBookings=true` on a booking of a recurring series, every booking of the series that has not started yet is cancelled in one statement instead (past ones stay).
         *
         *     Refused beyond the schema:
         *     - 400 "has already been cancelled": the booking is not cancelled yet
         *     - 400 "Cancellation reason is required when you are the host": a cancellationReason, when sent, is not blank (v1's message)
         */
        delete: operations["removeBookingById"];
        options?: never;
        head?: never;
        /**
         * Edit a booking
         * @description Refused beyond the schema:
         *     - 400 "must be after startTime": endTime is after startTime; a body with one of them is compared with the stored other
         */
        patch: operations["editBookingById"];
        trace?: never;
    };
    "/api/v1/bookings/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel a booking (the row is kept, status CANCELLED)
         * @description As v1: `cancellationReason` (default "Not Provided") and `cancelledBy` come from the query; a JSON body with the same keys is accepted too. The booking's references are removed and its slot is free again. With `allRemainingBookings=true` on a booking of a recurring series, every booking of the series that has not started yet is cancelled in one statement instead (past ones stay).
         *
         *     Refused beyond the schema:
         *     - 400 "has already been cancelled": the booking is not cancelled yet
         *     - 400 "Cancellation reason is required when you are the host": a cancellationReason, when sent, is not blank (v1's message)
         */
        delete: operations["cancelBookingById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/custom-inputs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the custom inputs you can see */
        get: operations["listCustomInputs"];
        put?: never;
        /** Create a custom input */
        post: operations["addCustomInput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/custom-inputs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a custom input */
        get: operations["getCustomInputById"];
        put?: never;
        post?: never;
        /** Delete a custom input */
        delete: operations["removeCustomInputById"];
        options?: never;
        head?: never;
        /** Edit a custom input */
        patch: operations["editCustomInputById"];
        trace?: never;
    };
    "/api/v1/destination-calendars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the destination calendars you can see */
        get: operations["listDestinationCalendars"];
        put?: never;
        /**
         * Create a destination calendar
         * @description Refused beyond the schema:
         *     - 400 "Bad request, credential id invalid": integration is the type of a calendar account the user connected (caldav_calendar, apple_calendar), and externalId the URL of one of its calendars (compared after normalisation: a trailing slash, a default port)
         */
        post: operations["addDestinationCalendar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/destination-calendars/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a destination calendar */
        get: operations["getDestinationCalendarById"];
        put?: never;
        post?: never;
        /** Delete a destination calendar */
        delete: operations["removeDestinationCalendarById"];
        options?: never;
        head?: never;
        /**
         * Edit a destination calendar
         * @description Refused beyond the schema:
         *     - 400 "Bad request, credential id invalid": integration is the type of a calendar account the user connected (caldav_calendar, apple_calendar), and externalId the URL of one of its calendars (compared after normalisation: a trailing slash, a default port)
         *     - 400 "required with": integration and externalId are changed together
         */
        patch: operations["editDestinationCalendarById"];
        trace?: never;
    };
    "/api/v1/event-references": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the event references you can see */
        get: operations["listEventReferences"];
        put?: never;
        /** Create a event reference */
        post: operations["addEventReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/event-references/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a event reference */
        get: operations["getEventReferenceById"];
        put?: never;
        post?: never;
        /** Delete a event reference */
        delete: operations["removeEventReferenceById"];
        options?: never;
        head?: never;
        /** Edit a event reference */
        patch: operations["editEventReferenceById"];
        trace?: never;
    };
    "/api/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the event types you can see */
        get: operations["listEventTypes"];
        put?: never;
        /**
         * Create a event type
         * @description Refused beyond the schema:
         *     - 400 "must not repeat a userId": hosts name each userId once (uniqueItems compares whole items, not one key of them)
         *     - 400 "is not the owner": a personal event type's hosts are its owner
         *     - 400 "is not an accepted member of team": a team event type's hosts are accepted members of the team
         *     - 400 "is not one of user …'s": a host's scheduleId is one of that host's schedules
         *     - 400 "give either userId or teamId, not both": an event type has userId or teamId, not both
         */
        post: operations["addEventType"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/event-types/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a event type */
        get: operations["getEventTypeById"];
        put?: never;
        post?: never;
        /** Delete a event type */
        delete: operations["removeEventTypeById"];
        options?: never;
        head?: never;
        /**
         * Edit a event type
         * @description Refused beyond the schema:
         *     - 400 "must not repeat a userId": hosts name each userId once (uniqueItems compares whole items, not one key of them)
         *     - 400 "is not the owner": a personal event type's hosts are its owner
         *     - 400 "is not an accepted member of team": a team event type's hosts are accepted members of the team
         *     - 400 "is not one of user …'s": a host's scheduleId is one of that host's schedules
         *     - 400 "give either userId or teamId, not both": an event type has userId or teamId, not both
         */
        patch: operations["editEventTypeById"];
        trace?: never;
    };
    "/api/v1/feed-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the feed tokens you can see */
        get: operations["listFeedTokens"];
        put?: never;
        /**
         * Create a calendar feed token (shown once)
         * @description The token opens `GET /v1/bookings.ics?feedToken=...`: your bookings as a calendar to subscribe to. It is answered this once (`token`, and `path`, the feed's path with it) and stored only as a hash; it is no API key and opens nothing else. Admins may make one for another user with `userId`.
         */
        post: operations["addFeedToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/feed-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a feed token */
        get: operations["getFeedTokenById"];
        put?: never;
        post?: never;
        /** Delete a feed token */
        delete: operations["removeFeedTokenById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user the apiKey belongs to */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memberships": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the memberships you can see */
        get: operations["listMemberships"];
        put?: never;
        /** Create a membership */
        post: operations["addMembership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memberships/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a membership */
        get: operations["getMembershipById"];
        put?: never;
        post?: never;
        /** Delete a membership */
        delete: operations["removeMembershipById"];
        options?: never;
        head?: never;
        /** Edit a membership */
        patch: operations["editMembershipById"];
        trace?: never;
    };
    "/api/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the payments you can see */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a payment */
        get: operations["getPaymentById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the schedules you can see */
        get: operations["listSchedules"];
        put?: never;
        /** Create a schedule */
        post: operations["addSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a schedule */
        get: operations["getScheduleById"];
        put?: never;
        post?: never;
        /** Delete a schedule */
        delete: operations["removeScheduleById"];
        options?: never;
        head?: never;
        /** Edit a schedule */
        patch: operations["editScheduleById"];
        trace?: never;
    };
    "/api/v1/selected-calendars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the selected calendars you can see */
        get: operations["listSelectedCalendars"];
        put?: never;
        /** Create a selected calendar */
        post: operations["addSelectedCalendar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/selected-calendars/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a selected calendar */
        get: operations["getSelectedCalendarById"];
        put?: never;
        post?: never;
        /** Delete a selected calendar */
        delete: operations["removeSelectedCalendarById"];
        options?: never;
        head?: never;
        /** Edit a selected calendar */
        patch: operations["editSelectedCalendarById"];
        trace?: never;
    };
    "/api/v1/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bookable start times of an event type
         * @description As v1: any apiKey may read any event type's slots (a booking page shows them to anyone). A COLLECTIVE event type offers a start when every host is free, a ROUND_ROBIN one when its fixed hosts and one round-robin host are, each on their own schedule and bookings. Two or more `usernameList` entries ask for v1's dynamic group event: 30 minutes (or `duration`) when all are free. With `rescheduleUid`, that booking's own time is offered as if it were free (it is what the reschedule gives up). The range may span at most 93 days.
         *
         *     Refused beyond the schema:
         *     - 400 "You need to either pass an eventTypeId OR an usernameList/eventTypeSlug combination": slots are asked for by eventTypeId, or by usernameList with eventTypeSlug (v1's rule and message)
         *     - 400 "Invalid ISO Date": startTime and endTime are dates JavaScript's Date.parse reads, as v1 read them (no format names its grammar)
         *     - 400 "endTime must be after startTime": endTime is after startTime
         *     - 400 "the range may span at most 93 days": the range spans at most 93 days
         */
        get: operations["getSlots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the teams you can see */
        get: operations["listTeams"];
        put?: never;
        /** Create a team */
        post: operations["addTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a team */
        get: operations["getTeamById"];
        put?: never;
        post?: never;
        /** Delete a team */
        delete: operations["removeTeamById"];
        options?: never;
        head?: never;
        /** Edit a team */
        patch: operations["editTeamById"];
        trace?: never;
    };
    "/api/v1/teams/{id}/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the event types of a team you belong to
         * @description v1's route: the team's event types, as `GET /event-types` shows them. A team you are not a member of (invited counts, as for `GET /teams/{id}`) is 404, as that route answers; v1 answered an empty list.
         */
        get: operations["listEventTypesByTeamId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the users you can see */
        get: operations["listUsers"];
        put?: never;
        /** Create a user */
        post: operations["addUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user */
        get: operations["getUserById"];
        put?: never;
        post?: never;
        /** Delete a user */
        delete: operations["removeUserById"];
        options?: never;
        head?: never;
        /**
         * Edit a user
         * @description Refused beyond the schema:
         *     - 400 "is not one of user …'s schedules": defaultScheduleId names one of the user's own schedules
         */
        patch: operations["editUserById"];
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.0.3 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database (and Redis, when REDIS_URL is set) is reachable, and no stop has been asked for */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error: a message; validation failures also list each issue */
        ApiError: {
            issues?: {
                message: string;
                path: string;
            }[];
            message: string;
        };
        ApiMessage: {
            message: string;
        };
        /** @description A person attending a booking */
        Attendee: {
            bookingId: number | null;
            email: string;
            id: number;
            name: string;
            timeZone: string;
        };
        AttendeeCreate: {
            /** @description One of your bookings */
            bookingId: number;
            /** Format: email */
            email: string;
            name: string;
            timeZone: components["schemas"]["TimeZone"];
        };
        AttendeeEdit: {
            /** @description Moves the attendee to another of your bookings */
            bookingId?: number;
            /** Format: email */
            email?: string;
            name?: string;
            timeZone?: components["schemas"]["TimeZone"];
        };
        /** @description A weekly (or one-day) slot of a schedule */
        Availability: {
            /**
             * Format: date-time
             * @description Set for a one-day override
             */
            date: string | null;
            days: number[];
            /**
             * Format: date-time
             * @description Time of day (UTC) on 1970-01-01
             */
            endTime: string;
            id: number;
            scheduleId: number | null;
            /**
             * Format: date-time
             * @description Time of day (UTC) on 1970-01-01
             */
            startTime: string;
        };
        AvailabilityCreate: {
            /** @description YYYY-MM-DD or an ISO 8601 date-time; years 1 to 9999 */
            date?: string | (null);
            /**
             * @description Week days, 0 = Sunday ... 6 = Saturday; each at most once
             * @default []
             */
            days?: number[];
            /** @description HH:mm, HH:mm:ss or an ISO 8601 date-time whose UTC time of day is taken */
            endTime: string;
            /** @description One of your schedules */
            scheduleId: number;
            /** @description HH:mm, HH:mm:ss or an ISO 8601 date-time whose UTC time of day is taken */
            startTime: string;
        };
        AvailabilityEdit: {
            /** @description YYYY-MM-DD or an ISO 8601 date-time; years 1 to 9999 */
            date?: string | (null);
            /** @description Week days, 0 = Sunday ... 6 = Saturday; each at most once */
            days?: number[];
            /** @description HH:mm, HH:mm:ss or an ISO 8601 date-time whose UTC time of day is taken */
            endTime?: string;
            /** @description Moves the slot to another of your schedules */
            scheduleId?: number;
            /** @description HH:mm, HH:mm:ss or an ISO 8601 date-time whose UTC time of day is taken */
            startTime?: string;
        };
        /** @description A booked meeting, as v1 returned it */
        Booking: {
            attendees: {
                email: string;
                id: number;
                locale: string | null;
                name: string;
                timeZone: string;
            }[];
            cancelledBy: string | null;
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            /** Format: date-time */
            endTime: string;
            eventTypeId: number | null;
            fromReschedule: string | null;
            id: number;
            metadata: unknown;
            payment: {
                id: number;
                /** @enum {string|null} */
                paymentOption: "ON_BOOKING" | "HOLD" | null;
                success: boolean;
            }[];
            rescheduledBy: string | null;
            /** @description The booker's answers; null for bookings made with legacy fields */
            responses: unknown;
            /** Format: date-time */
            startTime: string;
            /** @enum {string} */
            status: "ACCEPTED" | "PENDING" | "CANCELLED" | "REJECTED";
            title: string;
            uid: string;
            /** @description The organizer */
            user: {
                email: string;
                locale: string | null;
                name: string | null;
                timeZone: string;
            } | null;
            /** @description The organizer */
            userId: number | null;
        };
        BookingCancelled: {
            bookingId: number;
            bookingUid: string;
            message: string;
            onlyRemovedAttendee: boolean;
            /** @enum {boolean} */
            success: true;
        };
        BookingCreate: {
            customInputs?: {
                label: string;
                value: string | boolean;
            }[];
            description?: string | null;
            /** Format: email */
            email?: string;
            /** @description Default: start + the event type's length; otherwise it must match it */
            end?: string;
            /** @description The event type to book (any user's: a booking page is public, as in v1); 0 with `eventTypeSlug` and `user` books a dynamic group of two or more users, as in v1 */
            eventTypeId: number;
            /** @description With eventTypeId 0: the dynamic group event's slug (kept on the booking); lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
            eventTypeSlug?: string;
            guests?: string[];
            /** @description The booker's language (the attendee's locale) */
            language: string;
            location?: string;
            /**
             * @description String values only, as in v1: keys at most 255 characters, values 1,000; no NUL characters or lone UTF-16 surrogates
             * @default {}
             */
            metadata?: {
                [key: string]: string;
            };
            name?: string;
            /** @description true: no confirmation, request or rescheduled e-mail for this booking (as v1); the server sends booking e-mails only when it has an SMTP server (SMTP_URL) */
            noEmail?: boolean;
            notes?: string;
            /** @description Recurring series: how many bookings it has. With `recurringEventId` on a recurring event type it must not exceed the event type's `recurringEvent.count` (400 `Invalid recurringCount`); otherwise ignored, as in v1 */
            recurringCount?: number;
            /** @description Recurring series: an id the client chooses (a UUID), the same for every booking of the series; each POST books one of them, as in v1 */
            recurringEventId?: string;
            rescheduleReason?: string;
            /** @description Reschedule: the uid of the booking this one replaces. It becomes CANCELLED (`rescheduled: true`) in the same transaction, its slot does not block the new one, and the new booking's `fromReschedule` names it. 404 when unknown; 400 when it is cancelled, already rescheduled or over */
            rescheduleUid?: string;
            /**
             * Format: email
             * @description Reschedule: who moved it (stored on the original)
             */
            rescheduledBy?: string;
            /** @description Modern shape: `{name, email, location?, notes?, guests?, ...}`; at most 20,000 characters of JSON, no NUL characters or lone UTF-16 surrogates anywhere */
            responses?: {
                /** Format: email */
                email: string;
                guests?: string[];
                location?: string | {
                    optionValue?: string;
                    value: string;
                };
                name: string | {
                    firstName: string;
                    lastName?: string;
                };
                notes?: string;
            } & {
                [key: string]: unknown;
            };
            smsReminderNumber?: string | null;
            /** @description Start instant */
            start: string;
            /** @description The booker's zone: an IANA time zone name such as Europe/London or UTC: a name of the tz database, letter case as written there (the TimeZone enum lists them) */
            timeZone: components["schemas"]["TimeZone"];
            /** @description Default: "<event type> between <host> and <booker>" in the organizer's language (German for a `de` locale: "<event type> zwischen <host> und <booker>"), as v1 stored it; each e-mail says it in its recipient's */
            title?: string;
            /** @description With eventTypeId 0: the group's usernames, as a list or joined by "+" (`alice+bob`), as v1 took them */
            user?: string | string[];
        } & (unknown | {
            name: unknown;
        });
        BookingCreated: {
            attendees: ({
                email: string;
                id: number;
                name: string;
            } & {
                [key: string]: unknown;
            })[];
            creationSource: string | null;
            /** Format: date-time */
            endTime: string;
            eventTypeId: number | null;
            /** @description Reschedule: the uid of the booking this one replaced */
            fromReschedule: string | null;
            id: number;
            isDryRun: boolean;
            /** @description Team event types only: the round-robin host chosen (none for COLLECTIVE) */
            luckyUsers?: number[];
            payment: unknown[];
            paymentRequired: boolean;
            /** @description The series this booking belongs to */
            recurringEventId: string | null;
            references: unknown[];
            /** Format: date-time */
            startTime: string;
            /** @enum {string} */
            status: "ACCEPTED" | "PENDING" | "CANCELLED" | "REJECTED";
            title: string;
            uid: string;
            user: {
                /** @enum {string|null} */
                email: null;
                name: string | null;
                timeZone: string;
                username: string | null;
            };
            userId: number | null;
        } & {
            [key: string]: unknown;
        };
        BookingEdit: {
            /** Format: email */
            cancelledBy?: string;
            description?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            endTime?: string;
            eventTypeId?: number | null;
            /** @description The reason a declined e-mail gives, when this body moves a PENDING booking to REJECTED; not stored (v1's confirm handler took it as `reason`) */
            rejectionReason?: string;
            /** Format: email */
            rescheduledBy?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            startTime?: string;
            /**
             * @description A PENDING booking set ACCEPTED is confirmed: with e-mail on, the organizer and attendees get the scheduled e-mails with the invite; set REJECTED, the attendees get the declined e-mail. Any other change sends nothing
             * @enum {string}
             */
            status?: "ACCEPTED" | "PENDING" | "CANCELLED" | "REJECTED";
            title?: string;
            /** @description Admins only: change the organizer */
            userId?: number;
        };
        BookingExpanded: {
            attendees: {
                email: string;
                id: number;
                locale: string | null;
                name: string;
                timeZone: string;
            }[];
            cancelledBy: string | null;
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            /** Format: date-time */
            endTime: string;
            /** @description Only with `expand=team` */
            eventType?: {
                slug: string;
                team: {
                    name: string;
                    slug: string | null;
                } | null;
                title: string;
            } | null;
            eventTypeId: number | null;
            fromReschedule: string | null;
            id: number;
            metadata: unknown;
            payment: {
                id: number;
                /** @enum {string|null} */
                paymentOption: "ON_BOOKING" | "HOLD" | null;
                success: boolean;
            }[];
            rescheduledBy: string | null;
            /** @description The booker's answers; null for bookings made with legacy fields */
            responses: unknown;
            /** Format: date-time */
            startTime: string;
            /** @enum {string} */
            status: "ACCEPTED" | "PENDING" | "CANCELLED" | "REJECTED";
            title: string;
            uid: string;
            /** @description The organizer */
            user: {
                email: string;
                locale: string | null;
                name: string | null;
                timeZone: string;
            } | null;
            /** @description The organizer */
            userId: number | null;
        };
        /** @description A booking's record in an external calendar or video app */
        BookingReference: {
            bookingId: number | null;
            deleted: boolean | null;
            id: number;
            meetingId: string | null;
            meetingPassword: string | null;
            meetingUrl: string | null;
            type: string;
            uid: string;
        };
        BookingReferenceCreate: {
            /** @description One of your bookings */
            bookingId: number;
            credentialId?: number | null;
            deleted?: boolean | null;
            externalCalendarId?: string | null;
            meetingId?: string | null;
            meetingPassword?: string | null;
            /**
             * Format: uri
             * @description http(s) only: clients open it
             */
            meetingUrl?: string | null;
            thirdPartyRecurringEventId?: string | null;
            /** @description e.g. google_calendar, daily_video */
            type: string;
            /** @description The external system's id of the event */
            uid: string;
        };
        BookingReferenceEdit: {
            /** @description One of your bookings */
            bookingId?: number;
            credentialId?: number | null;
            deleted?: boolean | null;
            externalCalendarId?: string | null;
            meetingId?: string | null;
            meetingPassword?: string | null;
            /**
             * Format: uri
             * @description http(s) only: clients open it
             */
            meetingUrl?: string | null;
            thirdPartyRecurringEventId?: string | null;
            /** @description e.g. google_calendar, daily_video */
            type?: string;
            /** @description The external system's id of the event */
            uid?: string;
        };
        /** @description Where new bookings are written: a user's (userId set) or an event type's (eventTypeId set) */
        DestinationCalendar: {
            eventTypeId: number | null;
            externalId: string;
            id: number;
            integration: string;
            primaryEmail: string | null;
            userId: number | null;
        };
        DestinationCalendarCreate: {
            /** @description One of the owner's event types; without it the calendar is the user's own */
            eventTypeId?: number;
            /** @description The calendar's id in that integration */
            externalId: string;
            /** @description e.g. google_calendar */
            integration: string;
            /** Format: email */
            primaryEmail?: string | null;
            /** @description Admins only: the user the calendar is for */
            userId?: number;
        };
        DestinationCalendarEdit: {
            externalId?: string;
            integration?: string;
            /** Format: email */
            primaryEmail?: string | null;
        };
        /** @description The video meeting of a booking (one per booking) */
        EventReference: {
            bookingId: number;
            dailyurl: string;
            id: number;
        };
        EventReferenceCreate: {
            /** @description One of your bookings, without an event reference yet */
            bookingId: number;
            /** @description The meeting token; stored, never returned */
            dailytoken: string;
            /**
             * Format: uri
             * @description The meeting room's URL
             */
            dailyurl: string;
        };
        EventReferenceEdit: {
            /** @description Stored, never returned */
            dailytoken?: string;
            /** Format: uri */
            dailyurl?: string;
        };
        /** @description A bookable kind of meeting, personal or of a team */
        EventType: {
            afterEventBuffer: number;
            assignAllTeamMembers: boolean;
            beforeEventBuffer: number;
            bookingFields: unknown;
            bookingLimits: unknown;
            currency: string;
            customInputs: components["schemas"]["EventTypeCustomInput"][];
            description: string | null;
            disableGuests: boolean;
            durationLimits: unknown;
            eventName: string | null;
            hidden: boolean;
            hideCalendarNotes: boolean;
            hosts: {
                isFixed: boolean;
                priority: number | null;
                scheduleId: number | null;
                userId: number;
                weight: number | null;
            }[];
            id: number;
            isRRWeightsEnabled: boolean;
            /** @description Minutes */
            length: number;
            locations: unknown;
            metadata: unknown;
            minimumBookingNotice: number;
            onlyShowFirstAvailableSlot: boolean;
            parentId: number | null;
            periodCountCalendarDays: boolean | null;
            periodDays: number | null;
            /** Format: date-time */
            periodEndDate: string | null;
            /** Format: date-time */
            periodStartDate: string | null;
            /** @enum {string} */
            periodType: "UNLIMITED" | "ROLLING" | "ROLLING_WINDOW" | "RANGE";
            position: number;
            price: number;
            recurringEvent: unknown;
            requiresConfirmation: boolean;
            scheduleId: number | null;
            /** @enum {string|null} */
            schedulingType: "ROUND_ROBIN" | "COLLECTIVE" | "MANAGED" | null;
            seatsPerTimeSlot: number | null;
            seatsShowAttendees: boolean | null;
            seatsShowAvailabilityCount: boolean | null;
            slotInterval: number | null;
            slug: string;
            successRedirectUrl: string | null;
            teamId: number | null;
            timeZone: string | null;
            title: string;
            /** @description The owner; null for a team event type */
            userId: number | null;
        };
        EventTypeCreate: {
            /** @description Minutes */
            afterEventBuffer?: number;
            assignAllTeamMembers?: boolean;
            /** @description Minutes */
            beforeEventBuffer?: number;
            bookingFields?: {
                [key: string]: unknown;
            }[] | null;
            bookingLimits?: {
                PER_DAY?: number;
                PER_MONTH?: number;
                PER_WEEK?: number;
                PER_YEAR?: number;
            } | null;
            currency?: string;
            description?: string | null;
            disableGuests?: boolean;
            durationLimits?: {
                PER_DAY?: number;
                PER_MONTH?: number;
                PER_WEEK?: number;
                PER_YEAR?: number;
            } | null;
            eventName?: string | null;
            hidden?: boolean;
            hideCalendarNotes?: boolean;
            /** @description Each userId at most once. Given on edit, replaces the hosts; absent, keeps them */
            hosts?: {
                /**
                 * @description ROUND_ROBIN: must be free and joins every booking (every COLLECTIVE host does)
                 * @default false
                 */
                isFixed?: boolean;
                /** @description ROUND_ROBIN: 0 lowest ... 4 highest (null: 2); the highest free ones are chosen first */
                priority?: number | null;
                /** @description One of that host's schedules */
                scheduleId?: number | null;
                /** @description The owner, or an accepted member of the event type's team */
                userId: number;
                /** @description ROUND_ROBIN with isRRWeightsEnabled: the host's share of bookings (null: 100) */
                weight?: number | null;
            }[];
            /** @description ROUND_ROBIN: choose among free hosts by their weights first (v1's weighted round robin) */
            isRRWeightsEnabled?: boolean;
            /** @description Minutes */
            length: number;
            locations?: ({
                /**
                 * Format: uri
                 * @description http(s) only: booking pages and clients open it
                 */
                link?: string;
                type: string;
            } & {
                [key: string]: unknown;
            })[] | null;
            /** @description Free-form JSON: at most 32 levels deep, 10000 values and 65536 characters; no NUL characters or lone UTF-16 surrogates; no `__proto__` key, nor a `constructor` key holding `prototype`, at any depth */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** @description Minutes */
            minimumBookingNotice?: number;
            onlyShowFirstAvailableSlot?: boolean;
            periodCountCalendarDays?: boolean | null;
            periodDays?: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            periodEndDate?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            periodStartDate?: string | null;
            /** @enum {string} */
            periodType?: "UNLIMITED" | "ROLLING" | "ROLLING_WINDOW" | "RANGE";
            position?: number;
            price?: number;
            recurringEvent?: {
                count: number;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
                 */
                dtstart?: string;
                /** @description 0 YEARLY ... 6 SECONDLY (RFC 5545 order) */
                freq: number;
                interval: number;
                tzid?: components["schemas"]["TimeZone"];
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
                 */
                until?: string;
            } | null;
            requiresConfirmation?: boolean;
            /** @description One of the owner's schedules */
            scheduleId?: number | null;
            /** @enum {string|null} */
            schedulingType?: "ROUND_ROBIN" | "COLLECTIVE" | "MANAGED" | null;
            seatsPerTimeSlot?: number | null;
            seatsShowAttendees?: boolean | null;
            seatsShowAvailabilityCount?: boolean | null;
            slotInterval?: number | null;
            /** @description Unique among the owner's (or the team's) event types; lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
            slug: string;
            successRedirectUrl?: string | "" | (null);
            /** @description Makes it a team event type; needs OWNER or ADMIN of the team */
            teamId?: number;
            timeZone?: components["schemas"]["TimeZone"] | (null);
            title: string;
            /** @description Admins only: the user the event type is for */
            userId?: number;
        };
        /** @description A question asked when booking an event type */
        EventTypeCustomInput: {
            eventTypeId: number;
            id: number;
            label: string;
            options: {
                label: string;
                type: string;
            }[] | null;
            placeholder: string;
            required: boolean;
            /** @enum {string} */
            type: "TEXT" | "TEXTLONG" | "NUMBER" | "BOOL" | "RADIO" | "PHONE";
        };
        EventTypeCustomInputCreate: {
            /** @description One of your event types */
            eventTypeId: number;
            label: string;
            /** @description The choices of a RADIO input */
            options?: {
                label: string;
                type: string;
            }[] | null;
            /** @default  */
            placeholder?: string;
            /** @default false */
            required?: boolean;
            /** @enum {string} */
            type: "TEXT" | "TEXTLONG" | "NUMBER" | "BOOL" | "RADIO" | "PHONE";
        };
        EventTypeCustomInputEdit: {
            label?: string;
            options?: {
                label: string;
                type: string;
            }[] | null;
            placeholder?: string;
            required?: boolean;
            /** @enum {string} */
            type?: "TEXT" | "TEXTLONG" | "NUMBER" | "BOOL" | "RADIO" | "PHONE";
        };
        EventTypeEdit: {
            /** @description Minutes */
            afterEventBuffer?: number;
            assignAllTeamMembers?: boolean;
            /** @description Minutes */
            beforeEventBuffer?: number;
            bookingFields?: {
                [key: string]: unknown;
            }[] | null;
            bookingLimits?: {
                PER_DAY?: number;
                PER_MONTH?: number;
                PER_WEEK?: number;
                PER_YEAR?: number;
            } | null;
            currency?: string;
            description?: string | null;
            disableGuests?: boolean;
            durationLimits?: {
                PER_DAY?: number;
                PER_MONTH?: number;
                PER_WEEK?: number;
                PER_YEAR?: number;
            } | null;
            eventName?: string | null;
            hidden?: boolean;
            hideCalendarNotes?: boolean;
            /** @description Each userId at most once. Given on edit, replaces the hosts; absent, keeps them */
            hosts?: {
                /**
                 * @description ROUND_ROBIN: must be free and joins every booking (every COLLECTIVE host does)
                 * @default false
                 */
                isFixed?: boolean;
                /** @description ROUND_ROBIN: 0 lowest ... 4 highest (null: 2); the highest free ones are chosen first */
                priority?: number | null;
                /** @description One of that host's schedules */
                scheduleId?: number | null;
                /** @description The owner, or an accepted member of the event type's team */
                userId: number;
                /** @description ROUND_ROBIN with isRRWeightsEnabled: the host's share of bookings (null: 100) */
                weight?: number | null;
            }[];
            /** @description ROUND_ROBIN: choose among free hosts by their weights first (v1's weighted round robin) */
            isRRWeightsEnabled?: boolean;
            /** @description Minutes */
            length?: number;
            locations?: ({
                /**
                 * Format: uri
                 * @description http(s) only: booking pages and clients open it
                 */
                link?: string;
                type: string;
            } & {
                [key: string]: unknown;
            })[] | null;
            /** @description Free-form JSON: at most 32 levels deep, 10000 values and 65536 characters; no NUL characters or lone UTF-16 surrogates; no `__proto__` key, nor a `constructor` key holding `prototype`, at any depth */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** @description Minutes */
            minimumBookingNotice?: number;
            onlyShowFirstAvailableSlot?: boolean;
            periodCountCalendarDays?: boolean | null;
            periodDays?: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            periodEndDate?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            periodStartDate?: string | null;
            /** @enum {string} */
            periodType?: "UNLIMITED" | "ROLLING" | "ROLLING_WINDOW" | "RANGE";
            position?: number;
            price?: number;
            recurringEvent?: {
                count: number;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
                 */
                dtstart?: string;
                /** @description 0 YEARLY ... 6 SECONDLY (RFC 5545 order) */
                freq: number;
                interval: number;
                tzid?: components["schemas"]["TimeZone"];
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
                 */
                until?: string;
            } | null;
            requiresConfirmation?: boolean;
            /** @description One of the owner's schedules */
            scheduleId?: number | null;
            /** @enum {string|null} */
            schedulingType?: "ROUND_ROBIN" | "COLLECTIVE" | "MANAGED" | null;
            seatsPerTimeSlot?: number | null;
            seatsShowAttendees?: boolean | null;
            seatsShowAvailabilityCount?: boolean | null;
            slotInterval?: number | null;
            /** @description Unique among the owner's (or the team's) event types; lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
            slug?: string;
            successRedirectUrl?: string | "" | (null);
            timeZone?: components["schemas"]["TimeZone"] | (null);
            title?: string;
        };
        /** @description A calendar feed token, without its secret */
        FeedToken: {
            /** Format: date-time */
            createdAt: string;
            id: number;
            /**
             * Format: date-time
             * @description The feed's last fetch with it, to the minute
             */
            lastUsedAt: string | null;
            /** @description What the token is for (a calendar app, a device) */
            note: string | null;
            /** @description Whose bookings the feed shows */
            userId: number;
        };
        FeedTokenCreate: {
            note?: string | null;
            /** @description Admins only: the user whose feed the token opens */
            userId?: number;
        };
        FeedTokenCreated: {
            feed_token: components["schemas"]["FeedToken"];
            message: string;
            /** @description The feed's path and query with the token: prefix your API's origin (in hosted mode, add `&key=` and your license key) */
            path: string;
            /** @description The secret: shown this once, stored only as a hash */
            token: string;
        };
        /** @description A user in a team; its API id is <userId>_<teamId> */
        Membership: {
            accepted: boolean;
            /** Format: date-time */
            createdAt: string | null;
            disableImpersonation: boolean;
            id: number;
            /** @enum {string} */
            role: "MEMBER" | "ADMIN" | "OWNER";
            teamId: number;
            /** Format: date-time */
            updatedAt: string | null;
            userId: number;
        };
        MembershipCreate: {
            /**
             * @description Only the invited user (or an admin) can accept
             * @default false
             */
            accepted?: boolean;
            /** @default false */
            disableImpersonation?: boolean;
            /**
             * @description OWNER can only be given by an OWNER
             * @default MEMBER
             * @enum {string}
             */
            role?: "MEMBER" | "ADMIN" | "OWNER";
            /** @description A team where you are OWNER or ADMIN */
            teamId: number;
            /** @description The user to add */
            userId: number;
        };
        MembershipEdit: {
            /** @description Only the member themself (or an admin) */
            accepted?: boolean;
            disableImpersonation?: boolean;
            /**
             * @description Team OWNER or ADMIN; OWNER is given or taken only by an OWNER
             * @enum {string}
             */
            role?: "MEMBER" | "ADMIN" | "OWNER";
        };
        /** @description A payment for a booking (read-only) */
        Payment: {
            amount: number;
            bookingId: number;
            currency: string;
            fee: number;
            id: number;
            /** @enum {string|null} */
            paymentOption: "ON_BOOKING" | "HOLD" | null;
            refunded: boolean;
            success: boolean;
            uid: string;
        };
        /** @description A named set of availabilities */
        Schedule: {
            availability: {
                /** Format: date-time */
                date: string | null;
                days: number[];
                /** Format: date-time */
                endTime: string;
                id: number;
                /** Format: date-time */
                startTime: string;
            }[];
            id: number;
            name: string;
            timeZone: string | null;
            userId: number;
        };
        /** @description The schedule starts with one availability: Monday to Friday, 09:00-17:00 (UTC) */
        ScheduleCreate: {
            name: string;
            timeZone?: components["schemas"]["TimeZone"] | (null);
            /** @description Admins only: the user the schedule is for */
            userId?: number;
        };
        ScheduleEdit: {
            name?: string;
            timeZone?: components["schemas"]["TimeZone"] | (null);
        };
        /** @description A user (a non-admin sees only themself) */
        SchedulingUser: {
            allowDynamicBooking: boolean | null;
            appTheme: string | null;
            bio: string | null;
            brandColor: string | null;
            bufferTime: number;
            /** Format: date-time */
            createdDate: string;
            darkBrandColor: string | null;
            defaultScheduleId: number | null;
            email: string;
            /** Format: date-time */
            emailVerified: string | null;
            endTime: number;
            hideBranding: boolean;
            id: number;
            invitedTo: number | null;
            locale: string | null;
            name: string | null;
            /** @description The user's organization in v1; always null here, a server without organizations */
            organizationId: number | null;
            /** @enum {string} */
            role: "USER" | "ADMIN";
            theme: string | null;
            timeFormat: number | null;
            timeZone: string;
            username: string | null;
            verified: boolean | null;
            weekStart: string;
        };
        /** @description Admins only */
        SchedulingUserCreate: {
            allowDynamicBooking?: boolean | null;
            /** @enum {string|null} */
            appTheme?: "dark" | "light" | null;
            bio?: string | null;
            brandColor?: string | null;
            darkBrandColor?: string | null;
            /**
             * Format: email
             * @description Stored lower-cased; unique
             */
            email: string;
            hideBranding?: boolean;
            /** @enum {string|null} */
            locale?: "en" | "fr" | "it" | "ru" | "es" | "de" | "pt" | "ro" | "nl" | "pt-BR" | "es-419" | "ko" | "ja" | "pl" | "ar" | "iw" | "zh-CN" | "zh-TW" | "cs" | "sr" | "sv" | "vi" | "bn" | null;
            name?: string | null;
            /**
             * @description Admins only
             * @enum {string}
             */
            role?: "USER" | "ADMIN";
            /** @enum {string|null} */
            theme?: "dark" | "light" | null;
            timeFormat?: 12 | 24 | (null);
            timeZone?: components["schemas"]["TimeZone"];
            /** @description Stored lower-cased; unique */
            username: string;
            /** @enum {string} */
            weekStart?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
        };
        SchedulingUserEdit: {
            allowDynamicBooking?: boolean | null;
            /** @enum {string|null} */
            appTheme?: "dark" | "light" | null;
            bio?: string | null;
            brandColor?: string | null;
            darkBrandColor?: string | null;
            /** @description One of the user's own schedules */
            defaultScheduleId?: number | null;
            /**
             * Format: email
             * @description Stored lower-cased; unique
             */
            email?: string;
            hideBranding?: boolean;
            /** @enum {string|null} */
            locale?: "en" | "fr" | "it" | "ru" | "es" | "de" | "pt" | "ro" | "nl" | "pt-BR" | "es-419" | "ko" | "ja" | "pl" | "ar" | "iw" | "zh-CN" | "zh-TW" | "cs" | "sr" | "sv" | "vi" | "bn" | null;
            name?: string | null;
            /**
             * @description Admins only
             * @enum {string}
             */
            role?: "USER" | "ADMIN";
            /** @enum {string|null} */
            theme?: "dark" | "light" | null;
            timeFormat?: 12 | 24 | (null);
            timeZone?: components["schemas"]["TimeZone"];
            /** @description Stored lower-cased; unique */
            username?: string;
            /** @enum {string} */
            weekStart?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
        };
        /** @description A calendar checked for conflicts; its API id is <userId>_<integration>_<externalId> */
        SelectedCalendar: {
            /** Format: date-time */
            createdAt: string | null;
            credentialId: number | null;
            error: string | null;
            externalId: string;
            integration: string;
            /** Format: date-time */
            lastErrorAt: string | null;
            /** Format: date-time */
            updatedAt: string | null;
            userId: number;
        };
        SelectedCalendarCreate: {
            credentialId?: number | null;
            /** @description The calendar's id in that integration */
            externalId: string;
            /** @description e.g. google_calendar, office365_calendar; any non-empty string, as in v1 */
            integration: string;
            /** @description Admins only: the user the calendar is for */
            userId?: number;
        };
        SelectedCalendarEdit: {
            credentialId?: number | null;
            error?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999
             */
            lastErrorAt?: string | null;
        };
        Slot: {
            /** @description Seated event types: seats taken */
            attendees?: number;
            /** @description Seated event types: the booking holding the seats */
            bookingUid?: string;
            /** @description UTC ISO with ms, or in `timeZone` with its offset when one was given */
            time: string;
        };
        Slots: {
            /** @description Slots by date (YYYY-MM-DD in timeZone, else UTC) */
            slots: {
                [key: string]: components["schemas"]["Slot"][];
            };
        };
        /** @description A team; its members are memberships */
        Team: {
            bio: string | null;
            brandColor: string | null;
            /** Format: date-time */
            createdAt: string;
            darkBrandColor: string | null;
            hideBookATeamMember: boolean;
            hideBranding: boolean;
            hideTeamProfileLink: boolean;
            id: number;
            isPrivate: boolean;
            logoUrl: string | null;
            metadata: unknown;
            name: string;
            slug: string | null;
            theme: string | null;
            timeFormat: number | null;
            timeZone: string;
            weekStart: string;
        };
        /** @description One entry per accepted member, by user id */
        TeamAvailability: {
            availability: components["schemas"]["UserAvailability"];
            userId: number;
        }[];
        /** @description The creator (or ownerId) becomes the team's accepted OWNER */
        TeamCreate: {
            bio?: string | null;
            brandColor?: string | null;
            darkBrandColor?: string | null;
            hideBookATeamMember?: boolean;
            hideBranding?: boolean;
            hideTeamProfileLink?: boolean;
            isPrivate?: boolean;
            /** Format: uri */
            logoUrl?: string | null;
            /** @description Free-form JSON: at most 32 levels deep, 10000 values and 65536 characters; no NUL characters or lone UTF-16 surrogates; no `__proto__` key, nor a `constructor` key holding `prototype`, at any depth */
            metadata?: {
                [key: string]: unknown;
            } | null;
            name: string;
            /** @description Admins only: the user who becomes the team's OWNER */
            ownerId?: number;
            /** @description Unique regardless of case; lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
            slug?: string | null;
            theme?: string | null;
            timeFormat?: 12 | 24 | (null);
            timeZone?: components["schemas"]["TimeZone"];
            /** @enum {string} */
            weekStart?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
        };
        TeamEdit: {
            bio?: string | null;
            brandColor?: string | null;
            darkBrandColor?: string | null;
            hideBookATeamMember?: boolean;
            hideBranding?: boolean;
            hideTeamProfileLink?: boolean;
            isPrivate?: boolean;
            /** Format: uri */
            logoUrl?: string | null;
            /** @description Free-form JSON: at most 32 levels deep, 10000 values and 65536 characters; no NUL characters or lone UTF-16 surrogates; no `__proto__` key, nor a `constructor` key holding `prototype`, at any depth */
            metadata?: {
                [key: string]: unknown;
            } | null;
            name?: string;
            /** @description Unique regardless of case; lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
            slug?: string | null;
            theme?: string | null;
            timeFormat?: 12 | 24 | (null);
            timeZone?: components["schemas"]["TimeZone"];
            /** @enum {string} */
            weekStart?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
        };
        /**
         * @description An IANA time zone name such as Europe/London or UTC: a name of the tz database, letter case as written there (the TimeZone enum lists them)
         * @enum {string}
         */
        TimeZone: "Africa/Abidjan" | "Africa/Accra" | "Africa/Addis_Ababa" | "Africa/Algiers" | "Africa/Asmara" | "Africa/Asmera" | "Africa/Bamako" | "Africa/Bangui" | "Africa/Banjul" | "Africa/Bissau" | "Africa/Blantyre" | "Africa/Brazzaville" | "Africa/Bujumbura" | "Africa/Cairo" | "Africa/Casablanca" | "Africa/Ceuta" | "Africa/Conakry" | "Africa/Dakar" | "Africa/Dar_es_Salaam" | "Africa/Djibouti" | "Africa/Douala" | "Africa/El_Aaiun" | "Africa/Freetown" | "Africa/Gaborone" | "Africa/Harare" | "Africa/Johannesburg" | "Africa/Juba" | "Africa/Kampala" | "Africa/Khartoum" | "Africa/Kigali" | "Africa/Kinshasa" | "Africa/Lagos" | "Africa/Libreville" | "Africa/Lome" | "Africa/Luanda" | "Africa/Lubumbashi" | "Africa/Lusaka" | "Africa/Malabo" | "Africa/Maputo" | "Africa/Maseru" | "Africa/Mbabane" | "Africa/Mogadishu" | "Africa/Monrovia" | "Africa/Nairobi" | "Africa/Ndjamena" | "Africa/Niamey" | "Africa/Nouakchott" | "Africa/Ouagadougou" | "Africa/Porto-Novo" | "Africa/Sao_Tome" | "Africa/Timbuktu" | "Africa/Tripoli" | "Africa/Tunis" | "Africa/Windhoek" | "America/Adak" | "America/Anchorage" | "America/Anguilla" | "America/Antigua" | "America/Araguaina" | "America/Argentina/Buenos_Aires" | "America/Argentina/Catamarca" | "America/Argentina/ComodRivadavia" | "America/Argentina/Cordoba" | "America/Argentina/Jujuy" | "America/Argentina/La_Rioja" | "America/Argentina/Mendoza" | "America/Argentina/Rio_Gallegos" | "America/Argentina/Salta" | "America/Argentina/San_Juan" | "America/Argentina/San_Luis" | "America/Argentina/Tucuman" | "America/Argentina/Ushuaia" | "America/Aruba" | "America/Asuncion" | "America/Atikokan" | "America/Atka" | "America/Bahia" | "America/Bahia_Banderas" | "America/Barbados" | "America/Belem" | "America/Belize" | "America/Blanc-Sablon" | "America/Boa_Vista" | "America/Bogota" | "America/Boise" | "America/Buenos_Aires" | "America/Cambridge_Bay" | "America/Campo_Grande" | "America/Cancun" | "America/Caracas" | "America/Catamarca" | "America/Cayenne" | "America/Cayman" | "America/Chicago" | "America/Chihuahua" | "America/Ciudad_Juarez" | "America/Coral_Harbour" | "America/Cordoba" | "America/Costa_Rica" | "America/Coyhaique" | "America/Creston" | "America/Cuiaba" | "America/Curacao" | "America/Danmarkshavn" | "America/Dawson" | "America/Dawson_Creek" | "America/Denver" | "America/Detroit" | "America/Dominica" | "America/Edmonton" | "America/Eirunepe" | "America/El_Salvador" | "America/Ensenada" | "America/Fort_Nelson" | "America/Fort_Wayne" | "America/Fortaleza" | "America/Glace_Bay" | "America/Godthab" | "America/Goose_Bay" | "America/Grand_Turk" | "America/Grenada" | "America/Guadeloupe" | "America/Guatemala" | "America/Guayaquil" | "America/Guyana" | "America/Halifax" | "America/Havana" | "America/Hermosillo" | "America/Indiana/Indianapolis" | "America/Indiana/Knox" | "America/Indiana/Marengo" | "America/Indiana/Petersburg" | "America/Indiana/Tell_City" | "America/Indiana/Vevay" | "America/Indiana/Vincennes" | "America/Indiana/Winamac" | "America/Indianapolis" | "America/Inuvik" | "America/Iqaluit" | "America/Jamaica" | "America/Jujuy" | "America/Juneau" | "America/Kentucky/Louisville" | "America/Kentucky/Monticello" | "America/Knox_IN" | "America/Kralendijk" | "America/La_Paz" | "America/Lima" | "America/Los_Angeles" | "America/Louisville" | "America/Lower_Princes" | "America/Maceio" | "America/Managua" | "America/Manaus" | "America/Marigot" | "America/Martinique" | "America/Matamoros" | "America/Mazatlan" | "America/Mendoza" | "America/Menominee" | "America/Merida" | "America/Metlakatla" | "America/Mexico_City" | "America/Miquelon" | "America/Moncton" | "America/Monterrey" | "America/Montevideo" | "America/Montreal" | "America/Montserrat" | "America/Nassau" | "America/New_York" | "America/Nipigon" | "America/Nome" | "America/Noronha" | "America/North_Dakota/Beulah" | "America/North_Dakota/Center" | "America/North_Dakota/New_Salem" | "America/Nuuk" | "America/Ojinaga" | "America/Panama" | "America/Pangnirtung" | "America/Paramaribo" | "America/Phoenix" | "America/Port-au-Prince" | "America/Port_of_Spain" | "America/Porto_Acre" | "America/Porto_Velho" | "America/Puerto_Rico" | "America/Punta_Arenas" | "America/Rainy_River" | "America/Rankin_Inlet" | "America/Recife" | "America/Regina" | "America/Resolute" | "America/Rio_Branco" | "America/Rosario" | "America/Santa_Isabel" | "America/Santarem" | "America/Santiago" | "America/Santo_Domingo" | "America/Sao_Paulo" | "America/Scoresbysund" | "America/Shiprock" | "America/Sitka" | "America/St_Barthelemy" | "America/St_Johns" | "America/St_Kitts" | "America/St_Lucia" | "America/St_Thomas" | "America/St_Vincent" | "America/Swift_Current" | "America/Tegucigalpa" | "America/Thule" | "America/Thunder_Bay" | "America/Tijuana" | "America/Toronto" | "America/Tortola" | "America/Vancouver" | "America/Virgin" | "America/Whitehorse" | "America/Winnipeg" | "America/Yakutat" | "America/Yellowknife" | "Antarctica/Casey" | "Antarctica/Davis" | "Antarctica/DumontDUrville" | "Antarctica/Macquarie" | "Antarctica/Mawson" | "Antarctica/McMurdo" | "Antarctica/Palmer" | "Antarctica/Rothera" | "Antarctica/South_Pole" | "Antarctica/Syowa" | "Antarctica/Troll" | "Antarctica/Vostok" | "Arctic/Longyearbyen" | "Asia/Aden" | "Asia/Almaty" | "Asia/Amman" | "Asia/Anadyr" | "Asia/Aqtau" | "Asia/Aqtobe" | "Asia/Ashgabat" | "Asia/Ashkhabad" | "Asia/Atyrau" | "Asia/Baghdad" | "Asia/Bahrain" | "Asia/Baku" | "Asia/Bangkok" | "Asia/Barnaul" | "Asia/Beirut" | "Asia/Bishkek" | "Asia/Brunei" | "Asia/Calcutta" | "Asia/Chita" | "Asia/Choibalsan" | "Asia/Chongqing" | "Asia/Chungking" | "Asia/Colombo" | "Asia/Dacca" | "Asia/Damascus" | "Asia/Dhaka" | "Asia/Dili" | "Asia/Dubai" | "Asia/Dushanbe" | "Asia/Famagusta" | "Asia/Gaza" | "Asia/Harbin" | "Asia/Hebron" | "Asia/Ho_Chi_Minh" | "Asia/Hong_Kong" | "Asia/Hovd" | "Asia/Irkutsk" | "Asia/Istanbul" | "Asia/Jakarta" | "Asia/Jayapura" | "Asia/Jerusalem" | "Asia/Kabul" | "Asia/Kamchatka" | "Asia/Karachi" | "Asia/Kashgar" | "Asia/Kathmandu" | "Asia/Katmandu" | "Asia/Khandyga" | "Asia/Kolkata" | "Asia/Krasnoyarsk" | "Asia/Kuala_Lumpur" | "Asia/Kuching" | "Asia/Kuwait" | "Asia/Macao" | "Asia/Macau" | "Asia/Magadan" | "Asia/Makassar" | "Asia/Manila" | "Asia/Muscat" | "Asia/Nicosia" | "Asia/Novokuznetsk" | "Asia/Novosibirsk" | "Asia/Omsk" | "Asia/Oral" | "Asia/Phnom_Penh" | "Asia/Pontianak" | "Asia/Pyongyang" | "Asia/Qatar" | "Asia/Qostanay" | "Asia/Qyzylorda" | "Asia/Rangoon" | "Asia/Riyadh" | "Asia/Saigon" | "Asia/Sakhalin" | "Asia/Samarkand" | "Asia/Seoul" | "Asia/Shanghai" | "Asia/Singapore" | "Asia/Srednekolymsk" | "Asia/Taipei" | "Asia/Tashkent" | "Asia/Tbilisi" | "Asia/Tehran" | "Asia/Tel_Aviv" | "Asia/Thimbu" | "Asia/Thimphu" | "Asia/Tokyo" | "Asia/Tomsk" | "Asia/Ujung_Pandang" | "Asia/Ulaanbaatar" | "Asia/Ulan_Bator" | "Asia/Urumqi" | "Asia/Ust-Nera" | "Asia/Vientiane" | "Asia/Vladivostok" | "Asia/Yakutsk" | "Asia/Yangon" | "Asia/Yekaterinburg" | "Asia/Yerevan" | "Atlantic/Azores" | "Atlantic/Bermuda" | "Atlantic/Canary" | "Atlantic/Cape_Verde" | "Atlantic/Faeroe" | "Atlantic/Faroe" | "Atlantic/Jan_Mayen" | "Atlantic/Madeira" | "Atlantic/Reykjavik" | "Atlantic/South_Georgia" | "Atlantic/St_Helena" | "Atlantic/Stanley" | "Australia/ACT" | "Australia/Adelaide" | "Australia/Brisbane" | "Australia/Broken_Hill" | "Australia/Canberra" | "Australia/Currie" | "Australia/Darwin" | "Australia/Eucla" | "Australia/Hobart" | "Australia/LHI" | "Australia/Lindeman" | "Australia/Lord_Howe" | "Australia/Melbourne" | "Australia/NSW" | "Australia/North" | "Australia/Perth" | "Australia/Queensland" | "Australia/South" | "Australia/Sydney" | "Australia/Tasmania" | "Australia/Victoria" | "Australia/West" | "Australia/Yancowinna" | "Brazil/Acre" | "Brazil/DeNoronha" | "Brazil/East" | "Brazil/West" | "CET" | "CST6CDT" | "Canada/Atlantic" | "Canada/Central" | "Canada/Eastern" | "Canada/Mountain" | "Canada/Newfoundland" | "Canada/Pacific" | "Canada/Saskatchewan" | "Canada/Yukon" | "Chile/Continental" | "Chile/EasterIsland" | "Cuba" | "EET" | "EST" | "EST5EDT" | "Egypt" | "Eire" | "Etc/GMT" | "Etc/GMT+0" | "Etc/GMT+1" | "Etc/GMT+10" | "Etc/GMT+11" | "Etc/GMT+12" | "Etc/GMT+2" | "Etc/GMT+3" | "Etc/GMT+4" | "Etc/GMT+5" | "Etc/GMT+6" | "Etc/GMT+7" | "Etc/GMT+8" | "Etc/GMT+9" | "Etc/GMT-0" | "Etc/GMT-1" | "Etc/GMT-10" | "Etc/GMT-11" | "Etc/GMT-12" | "Etc/GMT-13" | "Etc/GMT-14" | "Etc/GMT-2" | "Etc/GMT-3" | "Etc/GMT-4" | "Etc/GMT-5" | "Etc/GMT-6" | "Etc/GMT-7" | "Etc/GMT-8" | "Etc/GMT-9" | "Etc/GMT0" | "Etc/Greenwich" | "Etc/UCT" | "Etc/UTC" | "Etc/Universal" | "Etc/Zulu" | "Europe/Amsterdam" | "Europe/Andorra" | "Europe/Astrakhan" | "Europe/Athens" | "Europe/Belfast" | "Europe/Belgrade" | "Europe/Berlin" | "Europe/Bratislava" | "Europe/Brussels" | "Europe/Bucharest" | "Europe/Budapest" | "Europe/Busingen" | "Europe/Chisinau" | "Europe/Copenhagen" | "Europe/Dublin" | "Europe/Gibraltar" | "Europe/Guernsey" | "Europe/Helsinki" | "Europe/Isle_of_Man" | "Europe/Istanbul" | "Europe/Jersey" | "Europe/Kaliningrad" | "Europe/Kiev" | "Europe/Kirov" | "Europe/Kyiv" | "Europe/Lisbon" | "Europe/Ljubljana" | "Europe/London" | "Europe/Luxembourg" | "Europe/Madrid" | "Europe/Malta" | "Europe/Mariehamn" | "Europe/Minsk" | "Europe/Monaco" | "Europe/Moscow" | "Europe/Nicosia" | "Europe/Oslo" | "Europe/Paris" | "Europe/Podgorica" | "Europe/Prague" | "Europe/Riga" | "Europe/Rome" | "Europe/Samara" | "Europe/San_Marino" | "Europe/Sarajevo" | "Europe/Saratov" | "Europe/Simferopol" | "Europe/Skopje" | "Europe/Sofia" | "Europe/Stockholm" | "Europe/Tallinn" | "Europe/Tirane" | "Europe/Tiraspol" | "Europe/Ulyanovsk" | "Europe/Uzhgorod" | "Europe/Vaduz" | "Europe/Vatican" | "Europe/Vienna" | "Europe/Vilnius" | "Europe/Volgograd" | "Europe/Warsaw" | "Europe/Zagreb" | "Europe/Zaporozhye" | "Europe/Zurich" | "GB" | "GB-Eire" | "GMT" | "GMT+0" | "GMT-0" | "GMT0" | "Greenwich" | "HST" | "Hongkong" | "Iceland" | "Indian/Antananarivo" | "Indian/Chagos" | "Indian/Christmas" | "Indian/Cocos" | "Indian/Comoro" | "Indian/Kerguelen" | "Indian/Mahe" | "Indian/Maldives" | "Indian/Mauritius" | "Indian/Mayotte" | "Indian/Reunion" | "Iran" | "Israel" | "Jamaica" | "Japan" | "Kwajalein" | "Libya" | "MET" | "MST" | "MST7MDT" | "Mexico/BajaNorte" | "Mexico/BajaSur" | "Mexico/General" | "NZ" | "NZ-CHAT" | "Navajo" | "PRC" | "PST8PDT" | "Pacific/Apia" | "Pacific/Auckland" | "Pacific/Bougainville" | "Pacific/Chatham" | "Pacific/Chuuk" | "Pacific/Easter" | "Pacific/Efate" | "Pacific/Enderbury" | "Pacific/Fakaofo" | "Pacific/Fiji" | "Pacific/Funafuti" | "Pacific/Galapagos" | "Pacific/Gambier" | "Pacific/Guadalcanal" | "Pacific/Guam" | "Pacific/Honolulu" | "Pacific/Johnston" | "Pacific/Kanton" | "Pacific/Kiritimati" | "Pacific/Kosrae" | "Pacific/Kwajalein" | "Pacific/Majuro" | "Pacific/Marquesas" | "Pacific/Midway" | "Pacific/Nauru" | "Pacific/Niue" | "Pacific/Norfolk" | "Pacific/Noumea" | "Pacific/Pago_Pago" | "Pacific/Palau" | "Pacific/Pitcairn" | "Pacific/Pohnpei" | "Pacific/Ponape" | "Pacific/Port_Moresby" | "Pacific/Rarotonga" | "Pacific/Saipan" | "Pacific/Samoa" | "Pacific/Tahiti" | "Pacific/Tarawa" | "Pacific/Tongatapu" | "Pacific/Truk" | "Pacific/Wake" | "Pacific/Wallis" | "Pacific/Yap" | "Poland" | "Portugal" | "ROC" | "ROK" | "Singapore" | "Turkey" | "UCT" | "US/Alaska" | "US/Aleutian" | "US/Arizona" | "US/Central" | "US/East-Indiana" | "US/Eastern" | "US/Hawaii" | "US/Indiana-Starke" | "US/Michigan" | "US/Mountain" | "US/Pacific" | "US/Samoa" | "UTC" | "Universal" | "W-SU" | "WET" | "Zulu";
        UserAvailability: {
            /** @description Accepted bookings, each padded by its event type's buffers, and the busy times of the user's selected calendars, in start order */
            busy: {
                /** Format: date-time */
                end: string;
                /** @description A connected calendar's busy time: the calendar's URL (its events' titles are not shown). Absent for a booking */
                source?: string;
                /** Format: date-time */
                start: string;
                /** @description A booking's title: only for your own availability (or an admin's view) */
                title?: string;
            }[];
            /** @description Selected calendars whose busy times are not confirmed for the range (they could not be read recently enough, or their recurring events are not expanded that far): the user is busy for that time. Absent when there is none */
            calendarProblems?: {
                /** @description The calendar's URL */
                calendar: string;
                /** @description Why its busy times are not confirmed */
                reason: string;
                /**
                 * Format: date-time
                 * @description Since when it fails to synchronise; null if it never did
                 */
                since: string | null;
            }[];
            /** @description With a seated eventTypeId: its accepted bookings in the range and their seats taken */
            currentSeats: {
                _count: {
                    attendees: number;
                };
                /** Format: date-time */
                startTime: string;
                uid: string;
            }[] | null;
            /** @description Date overrides of the schedule that meet the range */
            dateOverrides: {
                /** Format: date-time */
                end: string;
                /** Format: date-time */
                start: string;
            }[];
            /** @description Free: working hours minus busy times, within the range */
            dateRanges: {
                /** Format: date-time */
                end: string;
                /** Format: date-time */
                start: string;
            }[];
            /** @description Always empty: this server keeps no out-of-office entries */
            datesOutOfOffice: Record<string, never>;
            /** @description The same as dateRanges: this server keeps no out-of-office entries */
            oooExcludedDateRanges: {
                /** Format: date-time */
                end: string;
                /** Format: date-time */
                start: string;
            }[];
            /** @description The zone of the schedule used */
            timeZone: string;
            /** @description The weekly rules in UTC, at the zone's offset on dateFrom (as v1's getWorkingHours) */
            workingHours: {
                /** @description 0 = Sunday, in UTC */
                days: number[];
                /** @description Minutes past midnight UTC (1439 = until midnight) */
                endTime: number;
                /** @description Minutes past midnight UTC */
                startTime: number;
                userId: number;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getWelcome: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to find the docs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
        };
    };
    listAttendees: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attendees: components["schemas"]["Attendee"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addAttendee: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttendeeCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attendee: components["schemas"]["Attendee"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getAttendeeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attendee: components["schemas"]["Attendee"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeAttendeeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editAttendeeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttendeeEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attendee: components["schemas"]["Attendee"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listAvailabilities: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        availabilities: components["schemas"]["Availability"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addAvailability: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AvailabilityCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        availability: components["schemas"]["Availability"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getAvailabilityById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        availability: components["schemas"]["Availability"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeAvailabilityById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editAvailabilityById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AvailabilityEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        availability: components["schemas"]["Availability"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getAvailability: {
        parameters: {
            query: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description The user (or `username`, or `teamId`) */
                userId?: number;
                /** @description The user's username */
                username?: string;
                /** @description A team: every accepted member's availability (team OWNERs and ADMINs, and admins, only) */
                teamId?: number;
                /** @description Start of the range */
                dateFrom: string;
                /** @description End of the range; at most 93 days after dateFrom */
                dateTo: string;
                /** @description Use this event type's schedule, and list its seated bookings in `currentSeats` */
                eventTypeId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A user's availability, or a team's members' */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAvailability"] | components["schemas"]["TeamAvailability"];
                };
            };
            /** @description A missing or invalid value, or a range over 93 days */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description teamId: you are a member of the team, but not an OWNER or ADMIN; or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such user, event type, or team you belong to */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listBookingReferences: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking_references: components["schemas"]["BookingReference"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addBookingReference: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BookingReferenceCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking_reference: components["schemas"]["BookingReference"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getBookingReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking_reference: components["schemas"]["BookingReference"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeBookingReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editBookingReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BookingReferenceEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking_reference: components["schemas"]["BookingReference"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listBookings: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
                /** @description Bookings with an attendee of this e-mail (repeatable) */
                attendeeEmail?: string | string[];
                /** @description startTime >= dateFrom. Any date JavaScript's Date.parse reads (ISO 8601 recommended), in the years 1 to 9999 */
                dateFrom?: string;
                /** @description endTime <= dateTo. Any date JavaScript's Date.parse reads (ISO 8601 recommended), in the years 1 to 9999 */
                dateTo?: string;
                /** @description `upcoming`: startTime >= now */
                status?: "upcoming";
                sortBy?: "createdAt" | "updatedAt";
                order?: "asc" | "desc";
                /** @description `team` adds eventType {title, slug, team} */
                expand?: "team" | "team"[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the bookings you organise */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bookings: components["schemas"]["BookingExpanded"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addBooking: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: {
                /** @description Any string of 1 to 255 printable ASCII characters (a UUID, say), unique per request you mean. The same key with the same body within 24 hours answers the first request's answer again (with `Idempotent-Replayed: true`) and does nothing else; with another body it is 422. Keys are per user; an answer that was an error is not kept, so a retry after one runs again. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BookingCreate"];
            };
        };
        responses: {
            /** @description Book a slot of an event type */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookingCreated"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The Idempotency-Key was already used with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getBookingsCalendarFeed: {
        parameters: {
            query: {
                /** @description A feed token from POST /v1/feed-tokens (missing, unknown or revoked: 401) */
                feedToken: string;
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: {
                /** @description An ETag this feed answered: 304 while it is still current */
                "if-none-match"?: string;
                /** @description Used only without If-None-Match: 304 when no booking in the feed changed since */
                "if-modified-since"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calendar (RFC 5545) */
            200: {
                headers: {
                    "cache-control"?: "private, max-age=300";
                    /** @description A hash of the body: send it back in If-None-Match */
                    etag?: string;
                    /** @description The latest change to a booking the feed holds or dropped (absent with none) */
                    "last-modified"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/calendar": string;
                };
            };
            /** @description Not modified: the ETag (or the date) you sent is still current; no body */
            304: {
                headers: {
                    "cache-control"?: "private, max-age=300";
                    /** @description A hash of the body: send it back in If-None-Match */
                    etag?: string;
                    /** @description The latest change to a booking the feed holds or dropped (absent with none) */
                    "last-modified"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An unknown query key (an apiKey included), or a repeated one */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No feed token, or one that is unknown or revoked, or its user is locked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded (the token's user's budget) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getBookingById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description `team` adds eventType {title, slug, team} */
                expand?: "team" | "team"[];
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a booking */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking: components["schemas"]["BookingExpanded"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeBookingById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description Why (default "Not Provided") */
                cancellationReason?: string;
                /** @description `true` (exactly): on a booking of a recurring series, cancel every booking of the series that has not started yet, in one statement (past ones stay); any other value: this booking only, as in v1 */
                allRemainingBookings?: string;
                cancelledBy?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    cancellationReason?: string;
                    /** Format: email */
                    cancelledBy?: string;
                } | null;
            };
        };
        responses: {
            /** @description Cancel a booking (the row is kept, status CANCELLED) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookingCancelled"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editBookingById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BookingEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        booking: components["schemas"]["Booking"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    cancelBookingById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description Why (default "Not Provided") */
                cancellationReason?: string;
                /** @description `true` (exactly): on a booking of a recurring series, cancel every booking of the series that has not started yet, in one statement (past ones stay); any other value: this booking only, as in v1 */
                allRemainingBookings?: string;
                cancelledBy?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    cancellationReason?: string;
                    /** Format: email */
                    cancelledBy?: string;
                } | null;
            };
        };
        responses: {
            /** @description Cancel a booking (the row is kept, status CANCELLED) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookingCancelled"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listCustomInputs: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type_custom_inputs: components["schemas"]["EventTypeCustomInput"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addCustomInput: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventTypeCustomInputCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type_custom_input: components["schemas"]["EventTypeCustomInput"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getCustomInputById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type_custom_input: components["schemas"]["EventTypeCustomInput"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeCustomInputById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editCustomInputById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventTypeCustomInputEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type_custom_input: components["schemas"]["EventTypeCustomInput"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listDestinationCalendars: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        destinationCalendars: components["schemas"]["DestinationCalendar"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addDestinationCalendar: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationCalendarCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        destinationCalendar: components["schemas"]["DestinationCalendar"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getDestinationCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        destinationCalendar: components["schemas"]["DestinationCalendar"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeDestinationCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editDestinationCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationCalendarEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        destinationCalendar: components["schemas"]["DestinationCalendar"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listEventReferences: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_references: components["schemas"]["EventReference"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addEventReference: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventReferenceCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_reference: components["schemas"]["EventReference"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getEventReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_reference: components["schemas"]["EventReference"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeEventReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editEventReferenceById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventReferenceEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_reference: components["schemas"]["EventReference"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listEventTypes: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
                /** @description Repeatable: only these slugs */
                slug?: string | string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_types: components["schemas"]["EventType"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addEventType: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventTypeCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type: components["schemas"]["EventType"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getEventTypeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type: components["schemas"]["EventType"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeEventTypeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editEventTypeById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventTypeEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_type: components["schemas"]["EventType"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listFeedTokens: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        feed_tokens: components["schemas"]["FeedToken"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addFeedToken: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedTokenCreate"];
            };
        };
        responses: {
            /** @description Create a calendar feed token (shown once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedTokenCreated"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getFeedTokenById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        feed_token: components["schemas"]["FeedToken"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeFeedTokenById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["SchedulingUser"];
                    };
                };
            };
            /** @description An unknown query key, or a repeated one */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The key's user was deleted within the last seconds (keys are cached) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listMemberships: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
                /** @description Repeatable: only these teams */
                teamId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        memberships: components["schemas"]["Membership"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addMembership: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MembershipCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        membership: components["schemas"]["Membership"];
                        message: string;
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getMembershipById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<teamId>`, e.g. 12_34; each from 1 to 2147483647 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        membership: components["schemas"]["Membership"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeMembershipById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<teamId>`, e.g. 12_34; each from 1 to 2147483647 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editMembershipById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<teamId>`, e.g. 12_34; each from 1 to 2147483647 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MembershipEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        membership: components["schemas"]["Membership"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payments: components["schemas"]["Payment"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getPaymentById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schedules: components["schemas"]["Schedule"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addSchedule: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        schedule: components["schemas"]["Schedule"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getScheduleById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schedule: components["schemas"]["Schedule"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeScheduleById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editScheduleById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schedule: components["schemas"]["Schedule"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listSelectedCalendars: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        selected_calendars: components["schemas"]["SelectedCalendar"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addSelectedCalendar: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SelectedCalendarCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        selected_calendar: components["schemas"]["SelectedCalendar"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getSelectedCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        selected_calendar: components["schemas"]["SelectedCalendar"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeSelectedCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editSelectedCalendarById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description `<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SelectedCalendarEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        selected_calendar: components["schemas"]["SelectedCalendar"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getSlots: {
        parameters: {
            query: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description Start of the range (YYYY-MM-DD or ISO 8601) */
                startTime: string;
                /** @description End of the range; at most 93 days after startTime */
                endTime: string;
                /** @description The event type */
                eventTypeId?: number;
                /** @description With eventTypeSlug: the owner's username (or, with isTeamEvent=true, the team's slug); two or more (repeat the key) ask for a dynamic group event of those users */
                usernameList?: string | string[];
                /** @description With usernameList: the event type's slug; lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit */
                eventTypeSlug?: string;
                /** @description true: the one usernameList entry is a team's slug */
                isTeamEvent?: "true" | "false" | "TRUE" | "FALSE" | "True" | "False";
                /** @description Zone of the date keys and of each slot's time: an IANA time zone name such as Europe/London or UTC: a name of the tz database, letter case as written there (the TimeZone enum lists them) */
                timeZone?: components["schemas"]["TimeZone"];
                /** @description Slot length in minutes (default: the event type's) */
                duration?: string;
                /** @description The uid of a booking being rescheduled: its own time does not block (as in v1) */
                rescheduleUid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Slots grouped by date */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Slots"];
                };
            };
            /** @description A missing or invalid value, or a range over 93 days */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired; or a dynamic group with a user who does not allow dynamic booking */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such event type, user or team (`NOT_FOUND`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listTeams: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable; admins only */
                userId?: number | number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        teams: components["schemas"]["Team"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addTeam: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TeamCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        team: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getTeamById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        team: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeTeamById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editTeamById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TeamEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        team: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listEventTypesByTeamId: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the event types of a team you belong to */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_types: components["schemas"]["EventType"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
                /** @description 1-based page number */
                page?: string;
                /** @description Rows per page, at most 100 */
                take?: string;
                /** @description Repeatable: only these e-mail addresses */
                email?: string | string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Rows matching the filters, all pages */
                        total: number;
                        users: components["schemas"]["SchedulingUser"][];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    addUser: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SchedulingUserCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        user: components["schemas"]["SchedulingUser"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getUserById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["SchedulingUser"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    removeUserById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiMessage"];
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    editUserById: {
        parameters: {
            query?: {
                /** @description Set by the /v1 rewrite */
                version?: string;
            };
            header?: never;
            path: {
                /** @description Integer id, 1 to 2147483647 (decimal digits, no sign or leading zeros) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SchedulingUserEdit"];
            };
        };
        responses: {
            /** @description The row as edited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["SchedulingUser"];
                    };
                };
            };
            /** @description Invalid id, query or body; `issues` names each bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No apiKey, or one that is unknown or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description You may see this but not do this to it (or you named another user without being an admin); or the apiKey's user is locked */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such row, or one you may not see (including rows the body points at) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is larger than the server accepts (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The body is not JSON: send `Content-Type: application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description The role of the database reached: leader (it takes writes), or no leader (none reached, or a replica: a failover between leaders). With no leader the service stays ready for DATABASE_WAIT_MS, its requests waiting for one; then /ready answers 503
                         * @enum {string}
                         */
                        database: "leader" | "no leader";
                        status: string;
                    };
                };
            };
            /** @description Not ready; `message` says why */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
}
